import { randomToken } from '@hush/common';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { MAX_PASSWORD_BYTES, type PasswordCheck, type Passwords } from './passwords.js';
import type { User, UserChanges, UsersRepository } from './users.repository.js';
import { endAccountSessions, type SessionsDeps } from '../sessions/index.js';

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

/** What the user use-cases may reach; each takes the narrowest Pick of it. Wired in context.ts. */
export interface UsersDeps {
  users: UsersRepository;
  /** The organization a new account joins, by id or alias (organizations/ keeps them; its membership use-cases reach users). */
  organizations: { find(idOrName: string): Promise<{ id: string } | undefined> };
  /** Hashes and checks passwords in the bcrypt worker pool (passwords.ts). */
  passwords: Passwords;
}

/** Creates a user; when no password is given one is generated and returned (shown once). */
export async function createUser(
  deps: Pick<UsersDeps, 'users' | 'organizations' | 'passwords'>,
  input: NewUserInput,
): Promise<{ user: User; generatedPassword: string | undefined }> {
  checkUsername(input.username);
  checkEmail(input.email);
  const password = input.password ?? randomToken(18);
  const generatedPassword = input.password === undefined ? password : undefined;
  checkPassword(password);
  let organizationId: string | undefined;
  if (input.organization) {
    const org = await deps.organizations.find(input.organization);
    if (!org) throw new NotFoundError(`organization ${input.organization}`);
    organizationId = org.id;
  }
  const user = await deps.users.create({
    username: input.username,
    email: input.email,
    name: input.name ?? fullName(input.firstName, input.lastName),
    firstName: input.firstName,
    lastName: input.lastName,
    emailVerified: input.emailVerified,
    enabled: input.enabled,
    organizationId,
    selfRegistered: input.selfRegistered,
    locale: input.locale,
    passwordHash: await deps.passwords.hash(password),
  });
  return { user, generatedPassword };
}

export interface NewUserInput {
  username: string;
  password?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  emailVerified?: boolean | undefined;
  enabled?: boolean | undefined;
  organization?: string | undefined;
  /** Registered through the login page (REGISTRATION=true): signs in once the address is confirmed. */
  selfRegistered?: boolean | undefined;
  /** Keycloak's `locale` attribute (users.repository.ts). */
  locale?: string | null | undefined;
}

/**
 * Changes a user's profile or status; every way of changing a user comes here. Rules:
 * - disabling ends at once what the user holds: sessions, grants and refresh tokens go, and the
 *   access tokens of those grants are announced revoked;
 * - a new address is unverified unless `emailVerified` comes with it (only the admin API passes
 *   it), and the links mailed to the former one are cancelled (users.repository.ts `update`);
 * - when an address the account had proven is proven no more, the resource servers are told
 *   (ADR 10): the access tokens issued before prove no address but the one verified now, if any.
 */
export async function updateUser(deps: Pick<UsersDeps, 'users'> & SessionsDeps, id: string, changes: UserChanges): Promise<{ user: User; addressChanged: boolean }> {
  const user = await deps.users.findById(id);
  if (!user || user.serviceAccountClientId !== null) throw new NotFoundError('user');
  if (changes.username !== undefined && changes.username !== user.username) checkUsername(changes.username);
  checkEmail(changes.email ?? undefined);
  const names = changes.firstName !== undefined || changes.lastName !== undefined;
  const name = names ? fullName(changes.firstName ?? user.firstName, changes.lastName ?? user.lastName) : undefined;
  // Sessions end before the flag is written: a failed revocation leaves the user as it was.
  if (changes.enabled === false && user.enabled) await endAccountSessions(deps, id);
  const address = await deps.users.update(id, { ...changes, ...(name !== undefined ? { name } : {}) });
  const updated = (await deps.users.findById(id)) as User;
  if (address?.unproven) await deps.revocations.revokeAddress(id, updated.emailVerified ? updated.email : null);
  return { user: updated, addressChanged: address?.moved ?? false };
}

/** Deletes a user, ending its sessions and tokens first (as disabling does). */
export async function deleteUser(deps: Pick<UsersDeps, 'users'> & SessionsDeps, id: string): Promise<void> {
  const user = await deps.users.findById(id);
  if (!user || user.serviceAccountClientId !== null) throw new NotFoundError('user');
  await endAccountSessions(deps, id);
  await deps.users.delete(id);
}

/** Keycloak's reset-password: a new password for the user with this id. */
export async function resetUserPassword(deps: Pick<UsersDeps, 'users' | 'passwords'>, id: string, password: string): Promise<void> {
  checkPassword(password);
  const user = await deps.users.findById(id);
  if (!user || user.serviceAccountClientId !== null) throw new NotFoundError('user');
  await deps.users.setPasswordHash(id, await deps.passwords.hash(password));
}

/**
 * The service-account user of a client (Keycloak's `service-account-<clientId>`): what the
 * client's roles are granted to. Made on first use; it has no password and never signs in.
 */
export async function serviceAccountUser(deps: Pick<UsersDeps, 'users'>, client: { clientId: string; organizationId: string | null }): Promise<User> {
  const existing = await deps.users.findServiceAccount(client.clientId);
  if (existing) return existing;
  try {
    return await deps.users.create({
      username: `service-account-${client.clientId.toLowerCase()}`,
      // Not a bcrypt hash: no password ever matches it.
      passwordHash: '!',
      serviceAccountClientId: client.clientId,
      organizationId: client.organizationId,
    });
  } catch (err) {
    const raced = await deps.users.findServiceAccount(client.clientId);
    if (raced) return raced;
    throw err;
  }
}

function fullName(first: string | null | undefined, last: string | null | undefined): string | null {
  return [first, last].filter(Boolean).join(' ') || null;
}

function checkUsername(username: string): void {
  if (!USERNAME.test(username)) throw new InvalidInputError('username must be 1-64 letters, digits or . _ @ + -');
}

function checkEmail(email: string | null | undefined): void {
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new InvalidInputError('email is not an address');
}

export async function setUserPassword(deps: Pick<UsersDeps, 'users' | 'passwords'>, username: string, password: string): Promise<void> {
  checkPassword(password);
  const user = await deps.users.findByUsername(username);
  if (!user) throw new NotFoundError(`user ${username}`);
  await deps.users.setPasswordHash(user.id, await deps.passwords.hash(password));
}

/** The user when the password matches; always spends one bcrypt comparison (`passwords`: the pool, or a place taken in it). */
export async function authenticateUser(
  deps: Pick<UsersDeps, 'users'> & { passwords: Pick<PasswordCheck, 'verify' | 'dummyHash'> },
  username: string,
  password: string,
): Promise<User | undefined> {
  const user = USERNAME.test(username) ? await deps.users.findByUsername(username) : undefined;
  const ok = await deps.passwords.verify(password, user?.passwordHash ?? (await deps.passwords.dummyHash()));
  // A disabled user, or a service account (whose hash matches nothing anyway), never signs in.
  return ok && user && user.enabled && user.serviceAccountClientId === null ? user : undefined;
}

/** The realm's password policy; throws InvalidInputError saying what is wrong. */
export function checkPassword(password: string): void {
  if (password.length < 8) throw new InvalidInputError('password must be at least 8 characters');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw new InvalidInputError(`password must be at most ${MAX_PASSWORD_BYTES} bytes`);
}

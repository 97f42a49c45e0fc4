import { randomToken } from '@hush/common';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { OrganizationsRepository } from './organizations.repository.js';
import { MAX_PASSWORD_BYTES, hashPassword, verifyPassword } from './passwords.js';
import type { User, UsersRepository } from './users.repository.js';

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

/** What the user use-cases may reach; each takes the narrowest Pick of it. Wired in context.ts. */
export interface UsersDeps {
  users: UsersRepository;
  organizations: OrganizationsRepository;
  passwordCost: number;
  /** A hash of a random password at the configured cost, compared against when the username is unknown, so timing does not reveal which usernames exist. */
  dummyPasswordHash(): Promise<string>;
}

/** `dummyPasswordHash` for the deps: computed once, on first use (a bcrypt hash at full cost is slow). */
export function lazyDummyHash(cost: number): () => Promise<string> {
  let hash: Promise<string> | undefined;
  return () => (hash ??= hashPassword(randomToken(), cost));
}

/** Creates a user; when no password is given one is generated and returned (shown once). */
export async function createUser(
  deps: Pick<UsersDeps, 'users' | 'organizations' | 'passwordCost'>,
  input: {
    username: string;
    password?: string | undefined;
    email?: string | undefined;
    name?: string | undefined;
    organization?: string | undefined;
  },
): Promise<{ user: User; generatedPassword: string | undefined }> {
  if (!USERNAME.test(input.username)) throw new InvalidInputError('username must be 1-64 letters, digits or . _ @ + -');
  if (input.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) throw new InvalidInputError('email is not an address');
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
    name: input.name,
    organizationId,
    passwordHash: await hashPassword(password, deps.passwordCost),
  });
  return { user, generatedPassword };
}

export async function setUserPassword(deps: Pick<UsersDeps, 'users' | 'passwordCost'>, username: string, password: string): Promise<void> {
  checkPassword(password);
  const user = await deps.users.findByUsername(username);
  if (!user) throw new NotFoundError(`user ${username}`);
  await deps.users.setPasswordHash(user.id, await hashPassword(password, deps.passwordCost));
}

/** The user when the password matches; always spends one bcrypt comparison. */
export async function authenticateUser(deps: Pick<UsersDeps, 'users' | 'dummyPasswordHash'>, username: string, password: string): Promise<User | undefined> {
  const user = USERNAME.test(username) ? await deps.users.findByUsername(username) : undefined;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await deps.dummyPasswordHash()));
  return ok && user ? user : undefined;
}

function checkPassword(password: string): void {
  if (password.length < 8) throw new InvalidInputError('password must be at least 8 characters');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw new InvalidInputError(`password must be at most ${MAX_PASSWORD_BYTES} bytes`);
}

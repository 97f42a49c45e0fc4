import { InvalidInputError, NotFoundError } from '../errors.js';
import type { AccountGrant, AccountSession, SessionsDeps } from '../sessions/index.js';
import { orNull, profileErrors, type FieldError, type ProfileInput } from './profile.js';
import { resetUserPassword, updateUser, type User, type UsersDeps } from '../users/index.js';
import { artifactKey } from '../oidc/artifact-key.js';
import type { ConsentsRepository } from '../login/index.js';

/**
 * What a person does to their own account (the account console and Keycloak's account REST API).
 * Rules:
 * - a changed e-mail address is unverified until verified again (updateUser's rule);
 * - changing the password needs the current one and ends every other session, grant and refresh
 *   token of the person (the one signed in to the console stays);
 * - revoking an application also forgets what the person allowed it on the consent page, so it
 *   must ask again;
 * - ending a session or revoking an application announces its grants revoked before their rows
 *   go (ADR 10), so resource servers refuse the access tokens already issued under them.
 */
export type AccountDeps = Pick<UsersDeps, 'users' | 'passwords'> & SessionsDeps & { consents: Pick<ConsentsRepository, 'ofUser' | 'forget'> };

/** The console session's place among the person's sessions: its client and the ID token's `sid`. */
export interface CurrentSession {
  clientId: string;
  sid: string | undefined;
}

export class ProfileInvalidError extends InvalidInputError {
  constructor(readonly fields: FieldError[]) {
    super(fields.map((f) => f.text).join(' '));
  }
}

export class WrongPasswordError extends InvalidInputError {
  constructor() {
    super('The current password is not correct.');
  }
}

async function person(deps: Pick<UsersDeps, 'users'>, userId: string): Promise<User> {
  const user = await deps.users.findById(userId);
  if (!user?.enabled || user.serviceAccountClientId !== null) throw new NotFoundError('user');
  return user;
}

/** Saves the profile; returns the user and whether the e-mail address changed. */
export async function updateProfile(deps: AccountDeps, userId: string, input: ProfileInput): Promise<{ user: User; emailChanged: boolean }> {
  const user = await person(deps, userId);
  const errors = profileErrors(user, input);
  if (errors.length > 0) throw new ProfileInvalidError(errors);
  const email = orNull(input.email);
  const { user: changed, addressChanged } = await updateUser(deps, userId, {
    ...(input.firstName !== undefined ? { firstName: orNull(input.firstName) ?? null } : {}),
    ...(input.lastName !== undefined ? { lastName: orNull(input.lastName) ?? null } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(input.locale !== undefined ? { locale: orNull(input.locale) ?? null } : {}),
  });
  return { user: changed, emailChanged: addressChanged };
}

/** Changes the password after checking the current one (a bcrypt comparison either way); ends the other sessions. */
export async function changePassword(deps: AccountDeps, userId: string, current: string, next: string, keep: CurrentSession): Promise<void> {
  const user = await person(deps, userId);
  if (!(await deps.passwords.verify(current, user.passwordHash))) throw new WrongPasswordError();
  if (next === current) throw new InvalidInputError('The new password must differ from the current one.');
  await resetUserPassword(deps, userId, next);
  await endOtherSessions(deps, userId, keep);
}

/** The person's sessions, the current one first and marked. */
export async function sessionsOf(deps: SessionsDeps, userId: string, current: CurrentSession): Promise<(AccountSession & { current: boolean })[]> {
  const all = (await deps.sessions.accountSessions(userId)).map((s) => ({ ...s, current: isCurrent(s, current) }));
  return [...all.filter((s) => s.current), ...all.filter((s) => !s.current)];
}

const isCurrent = (s: AccountSession, current: CurrentSession) =>
  current.sid !== undefined && s.authorizations.some((a) => a.clientId === current.clientId && a.sid === current.sid);

/** Ends one session of the person and what its sign-ins were granted; false when there is no such session. */
export async function endSession(deps: SessionsDeps, userId: string, sessionId: string): Promise<boolean> {
  const session = (await deps.sessions.accountSessions(userId)).find((s) => s.id === sessionId);
  if (!session) return false;
  const grants = session.authorizations.map((a) => a.grantId).filter((g): g is string => !!g);
  for (const grantId of grants) await deps.revocations.revokeGrant(grantId);
  await deps.sessions.deleteGrants(userId, grants);
  return deps.sessions.deleteSession(userId, sessionId);
}

/** Ends every session, grant and refresh token of the person except the current session and its grants. */
export async function endOtherSessions(deps: SessionsDeps, userId: string, keep: CurrentSession): Promise<void> {
  const sessions = await deps.sessions.accountSessions(userId);
  const current = sessions.find((s) => isCurrent(s, keep));
  const kept = new Set(current?.authorizations.map((a) => a.grantId).filter(Boolean));
  const grants = (await deps.sessions.grantIds(userId)).filter((g) => !kept.has(g));
  for (const grantId of grants) await deps.revocations.revokeGrant(grantId);
  await deps.sessions.deleteGrants(userId, grants);
  for (const s of sessions) if (s !== current) await deps.sessions.deleteSession(userId, s.id);
  // Grants no session or token names any more (their ids are stored only hashed).
  const keptKeys = new Set([...kept].map((g) => artifactKey(g as string)));
  const orphans = (await deps.sessions.accountGrants(userId)).filter((g) => !keptKeys.has(g.key)).map((g) => g.key);
  if (orphans.length > 0) await deps.sessions.deleteGrants(userId, [], orphans);
}

/** The applications the person granted access to (one entry per client), without the consoles. */
export async function applicationsOf(
  deps: SessionsDeps & Pick<AccountDeps, 'consents'>,
  userId: string,
  hidden: readonly string[],
): Promise<{ clientId: string; scopes: string[] }[]> {
  const byClient = new Map<string, Set<string>>();
  const add = (clientId: string, scopes: string[]) => {
    if (!clientId || hidden.includes(clientId)) return;
    const held = byClient.get(clientId) ?? new Set<string>();
    for (const s of scopes) held.add(s);
    byClient.set(clientId, held);
  };
  for (const g of await deps.sessions.accountGrants(userId)) add(g.clientId, [...g.scopes, ...g.resourceScopes]);
  for (const c of await deps.consents.ofUser(userId)) add(c.clientId, [...c.scopes, ...Object.values(c.resourceScopes).flat()]);
  return [...byClient].map(([clientId, scopes]) => ({ clientId, scopes: [...scopes] })).sort((a, b) => a.clientId.localeCompare(b.clientId));
}

/** Revokes what the person granted one application: its grants and every token under them. False when it had none. */
export async function revokeApplication(deps: SessionsDeps & Pick<AccountDeps, 'consents'>, userId: string, clientId: string): Promise<boolean> {
  const forgotten = await deps.consents.forget(userId, clientId);
  const grants: AccountGrant[] = (await deps.sessions.accountGrants(userId)).filter((g) => g.clientId === clientId);
  if (grants.length === 0) return forgotten;
  const keys = new Set(grants.map((g) => g.key));
  const ids = (await deps.sessions.grantIds(userId)).filter((id) => keys.has(artifactKey(id)));
  for (const grantId of ids) await deps.revocations.revokeGrant(grantId);
  await deps.sessions.deleteGrants(userId, ids, [...keys]);
  return true;
}

import { randomUUID } from 'node:crypto';
import { randomToken, sha256, type KeyRing } from '@hush/common';
import { chooseMailLocale, DEFAULT_LOCALE, type Locale, type MailLocaleHints } from '@hush/common/i18n';
import type { AccountAction, AccountLinkJob } from '@hush/queue';
import { currentTraceparent } from '@hush/telemetry';
import { endAccountSessions, type SessionsDeps } from '../sessions/index.js';
import type { ActionToken, ActionTokenKind, ActionTokensRepository } from './action-tokens.repository.js';
import { sealAccountLink } from './account-mail.js';
import { addressForm, checkPassword, type Passwords, type User, type UsersRepository } from '../users/index.js';

/**
 * Links sent by e-mail that let a person act on their own account: reset the password ("Forgot
 * password?"), perform what an administrator asks (execute-actions-email), confirm the address of
 * a self-registered account. Rules:
 * - the link's key is 256 random bits; only its SHA-256 is stored; it works once (one atomic
 *   statement redeems it) and until `expiresAt`;
 * - the token and its e-mail request are stored together (one statement), and the e-mail leaves
 *   through the outbox relay; the job carries the link, never a password;
 * - a link is only ever mailed to the account's own address, so using one also verifies it;
 * - a new password ends every session, grant and refresh token of the account (revocation feed);
 * - the e-mail is in the language the request that caused it asks for (`kc_locale`, `ui_locales`,
 *   the language cookie), else the account's `locale` attribute, else the request's
 *   `Accept-Language`, else English (common/i18n's chooseMailLocale).
 */
export interface AccountActionsDeps {
  tokens: Pick<ActionTokensRepository, 'issue' | 'findUsable' | 'redeem' | 'retireResetLinks'>;
  users: Pick<UsersRepository, 'findById' | 'findByLogin' | 'verifyAddress' | 'setPasswordHash'>;
  passwords: Pick<Passwords, 'hash'>;
  /** The key the outbox payloads are sealed under (derived from MASTER_KEY). */
  outboxKey: KeyRing;
  /** The realm's issuer URL: links point at `${issuer}/login-actions/action-token`. */
  issuer: string;
  /** Tells the relay a row is waiting (it also runs on its own timer). */
  mailWritten(): void;
}

/** The page a link opens; the key travels in the query, as Keycloak's action-token links do. */
export const ACTION_TOKEN_PATH = '/login-actions/action-token';

/** A link's address; one mailed in another language than English names it, so its pages speak the e-mail's language. */
export const actionLink = (issuer: string, key: string, locale: Locale = DEFAULT_LOCALE) =>
  `${issuer}${ACTION_TOKEN_PATH}?key=${encodeURIComponent(key)}${locale === DEFAULT_LOCALE ? '' : `&ui_locales=${locale}`}`;

const hashOf = (key: string) => sha256(key);
const addressHash = (address: string) => sha256(addressForm(address));

export interface IssueOptions {
  actions: AccountAction[];
  lifespanSeconds: number;
  clientId?: string | null | undefined;
  redirectUri?: string | null | undefined;
  interactionUid?: string | null | undefined;
  /** What the causing request says of the e-mail's language (pages/page-locale.ts `mailHintsOf`); the account's `locale` comes after. */
  hints?: Omit<MailLocaleHints, 'accountLocale'> | undefined;
}

/** Stores a token for `user` and the e-mail with its link; the user must have an address. Returns the token id. */
export async function issueActionLink(deps: AccountActionsDeps, user: User & { email: string }, kind: ActionTokenKind, o: IssueOptions): Promise<string> {
  const key = randomToken(32);
  const id = randomUUID();
  const deliveryId = randomUUID();
  const expiresAt = new Date(Date.now() + o.lifespanSeconds * 1000);
  const locale = chooseMailLocale({ ...o.hints, accountLocale: user.locale });
  const job: AccountLinkJob = {
    version: 1,
    kind,
    deliveryId,
    to: user.email,
    username: user.username,
    link: actionLink(deps.issuer, key, locale),
    ...(kind === 'execute-actions' ? { actions: o.actions } : {}),
    expiresAt: Math.floor(expiresAt.getTime() / 1000),
    locale,
  };
  await deps.tokens.issue(
    {
      id,
      tokenHash: hashOf(key),
      userId: user.id,
      kind,
      actions: o.actions,
      clientId: o.clientId ?? null,
      redirectUri: o.redirectUri ?? null,
      interactionUid: o.interactionUid ?? null,
      sentToHash: addressHash(user.email),
      addressVersion: user.addressVersion,
      expiresAt,
    },
    // Traced, the relay's hand-off of this e-mail continues the trace of the request that asked for it.
    { id: deliveryId, payloadSealed: sealAccountLink(deps.outboxKey, job), traceContext: currentTraceparent() },
  );
  deps.mailWritten();
  return id;
}

/** Whether a password-reset link can be mailed to this user: enabled, a person, with an address. */
const canReset = (user: User | undefined): user is User & { email: string } => !!user && user.enabled && user.serviceAccountClientId === null && !!user.email;

/**
 * "Forgot password?": mails a reset link when `login` names an account (username or address) that
 * can receive one; nothing otherwise. The caller answers the same either way, before this runs.
 */
export async function requestPasswordReset(
  deps: AccountActionsDeps,
  login: string,
  o: { lifespanSeconds: number; interactionUid?: string | undefined; hints?: IssueOptions['hints'] },
): Promise<User | undefined> {
  const user = login ? await deps.users.findByLogin(login) : undefined;
  if (!canReset(user)) return undefined;
  await issueActionLink(deps, user, 'reset-password', { actions: ['UPDATE_PASSWORD'], lifespanSeconds: o.lifespanSeconds, interactionUid: o.interactionUid, hints: o.hints });
  return user;
}

/**
 * A usable link's token and its user: a disabled or deleted account's link opens nothing, nor one
 * whose account changed its address since the link was mailed (or has another one now).
 */
export async function inspectActionLink(deps: Pick<AccountActionsDeps, 'tokens' | 'users'>, key: string): Promise<{ token: ActionToken; user: User } | undefined> {
  if (!key) return undefined;
  const token = await deps.tokens.findUsable(hashOf(key));
  const user = token ? await deps.users.findById(token.userId) : undefined;
  return token && user?.enabled && stillAddressed(token, user) ? { token, user } : undefined;
}

/** Whether the account is still at the address the link went to, never having moved since. */
function stillAddressed(token: ActionToken, user: User): boolean {
  return user.email !== null && token.addressVersion === user.addressVersion && token.sentToHash !== null && token.sentToHash.equals(addressHash(user.email));
}

/** The link was used, has expired, or never existed: the page says so without telling which. */
export class ActionLinkUnusableError extends Error {
  override name = 'ActionLinkUnusableError';
}

/**
 * Performs a link's actions and uses it up: a new password (checked against the policy first, so
 * a refused one leaves the link usable), the address it was mailed to marked verified. A new
 * password ends the account's sessions and refresh tokens, announced on the revocation feed.
 */
export async function completeActionLink(
  deps: AccountActionsDeps & SessionsDeps,
  key: string,
  input: { password?: string | undefined },
): Promise<{ token: ActionToken; user: User }> {
  const found = await inspectActionLink(deps, key);
  if (!found) throw new ActionLinkUnusableError();
  const needsPassword = found.token.actions.includes('UPDATE_PASSWORD');
  if (needsPassword) checkPassword(input.password ?? '');
  const passwordHash = needsPassword ? await deps.passwords.hash(input.password ?? '') : undefined;
  const token = await deps.tokens.redeem(hashOf(key));
  if (!token) throw new ActionLinkUnusableError();
  const user = found.user;
  if (passwordHash !== undefined) {
    await deps.users.setPasswordHash(user.id, passwordHash);
    // Other reset links mailed before this one must not undo the new password.
    await deps.tokens.retireResetLinks(user.id);
    await endAccountSessions(deps, user.id);
  }
  // Using the link proves the address it was mailed to, whatever was asked; the update is
  // conditional, so an address changed since the link was checked is not marked.
  if (!user.emailVerified) await deps.users.verifyAddress(user.id, user.addressVersion);
  return { token, user };
}

import { isUuid, randomToken, sha256 } from '@hush/common';
import { InvalidCustidError, UnknownPlanError } from '../errors.js';
import type { AccountsRepository, Account } from './accounts.repository.js';
import type { ApiTokensRepository, ApiToken, TokenOwner } from './api-tokens.repository.js';
import { isPlanName, PLAN_NAMES, type PlanName } from './plans.js';
import type { TokenCache } from './token-cache.js';

/** API tokens: 256 random bits behind a recognisable prefix (secret scanners can find leaks). */
export const TOKEN_PREFIX = 'hush_';
// A custid is the username half of HTTP Basic credentials, so it cannot contain a colon.
const CUSTID = /^[^\s:\p{Cc}]{1,254}$/u;

export const hashToken = (token: string): Buffer => sha256(token);

/** What the account use-cases may reach; each takes the narrowest Pick of it. Wired in context.ts. */
export interface AccountsDeps {
  accounts: AccountsRepository;
  tokens: ApiTokensRepository;
  tokenCache: TokenCache;
  defaultPlan: PlanName;
}

export interface MintedToken {
  id: string;
  custid: string;
  label: string | null;
  api_token: string;
  created: number;
}

export function createAccount(deps: Pick<AccountsDeps, 'accounts' | 'defaultPlan'>, custid: string, plan: string | undefined): Promise<Account> {
  return deps.accounts.create(checkCustid(custid), checkPlan(plan ?? deps.defaultPlan));
}

export function setAccountPlan(deps: Pick<AccountsDeps, 'accounts'>, custid: string, plan: string): Promise<Account> {
  return deps.accounts.setPlan(checkCustid(custid), checkPlan(plan));
}

/** Mints a token for the account (created on first use with the default plan); the clear token is returned once. */
export async function mintApiToken(deps: Pick<AccountsDeps, 'accounts' | 'tokens' | 'defaultPlan'>, custid: string, label?: string): Promise<MintedToken> {
  await deps.accounts.ensure(checkCustid(custid), deps.defaultPlan);
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  const row = await deps.tokens.create(custid, hashToken(token), label?.slice(0, 100) ?? null);
  return { id: row.id, custid, label: row.label, api_token: token, created: Math.floor(row.createdAt.getTime() / 1000) };
}

/** False when there is no such active token (or it belongs to another account). */
export async function revokeApiToken(deps: Pick<AccountsDeps, 'tokens' | 'tokenCache'>, id: string, custid?: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  deps.tokenCache.forget(id);
  return deps.tokens.revoke(id, custid);
}

export function listApiTokens(deps: Pick<AccountsDeps, 'tokens'>, custid: string): Promise<ApiToken[]> {
  return deps.tokens.list(custid);
}

/** Basic credentials: the token must exist, be active, and belong to the named account. */
export async function authenticateApiToken(deps: Pick<AccountsDeps, 'tokens' | 'tokenCache'>, username: string, token: string): Promise<TokenOwner | undefined> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
  const hash = hashToken(token);
  const key = hash.toString('base64');
  let owner = deps.tokenCache.get(key);
  if (!owner) {
    owner = await deps.tokens.findOwner(hash);
    if (owner) {
      deps.tokenCache.set(key, owner);
      // "Last used" for the tokens page: best effort, off the request's path (at most once a minute, see touch).
      if (owner.custid === username) deps.tokens.touch(owner.tokenId).catch(() => undefined);
    }
  }
  return owner && owner.custid === username ? owner : undefined;
}

function checkCustid(custid: string): string {
  if (!CUSTID.test(custid)) throw new InvalidCustidError();
  return custid;
}

function checkPlan(plan: string): PlanName {
  if (!isPlanName(plan)) throw new UnknownPlanError(plan, PLAN_NAMES);
  return plan;
}

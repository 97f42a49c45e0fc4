import { SECRETS_SCOPES, type SecretsScope } from '@hush/contracts';

/** Scopes of the secrets API (the contract's, registered in identity by `hush-identity bootstrap`). */
export const SCOPES = SECRETS_SCOPES;
export type Scope = SecretsScope;

/**
 * Who is calling. `custid` is the account: the Basic username for API tokens, the `username`
 * claim for user access tokens, the `client_id` for client-credentials tokens.
 */
export interface Principal {
  custid: string;
  scopes: ReadonlySet<string>;
  via: 'api_token' | 'user_token' | 'client_token' | 'anonymous';
  /** Known without a query for API tokens (joined at authentication). */
  plan?: string;
  /** The person's e-mail address, only when identity says it is verified (user tokens and web sessions). */
  email?: string;
}

/** Onetime Secret's name for a caller without an account. */
export const ANONYMOUS_CUSTID = 'anon';
const anonymousScopes: ReadonlySet<string> = new Set([SCOPES.write]);

/**
 * The caller of an anonymous share or generate (ANONYMOUS_SHARES=true): it may create secrets
 * (scope secrets:write) under the anonymous plan, and nothing else. Secrets it creates are stored
 * as anonymous, so no account (not even one called `anon`) lists them in `recent`.
 */
export function anonymousPrincipal(): Principal {
  return { custid: ANONYMOUS_CUSTID, scopes: anonymousScopes, via: 'anonymous', plan: ANONYMOUS_PLAN_NAME };
}

export const ANONYMOUS_PLAN_NAME = 'anonymous';
export const isAnonymous = (p: Principal): boolean => p.via === 'anonymous';

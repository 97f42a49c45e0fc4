/** Scopes of the secrets API (registered in identity by `hush-identity bootstrap`). */
export const SCOPES = { read: 'secrets:read', write: 'secrets:write' } as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

/**
 * Who is calling. `custid` is the account: the Basic username for API tokens, the `username`
 * claim for user access tokens, the `client_id` for client-credentials tokens.
 */
export interface Principal {
  custid: string;
  scopes: ReadonlySet<string>;
  via: 'api_token' | 'user_token' | 'client_token';
  /** Known without a query for API tokens (joined at authentication). */
  plan?: string;
}

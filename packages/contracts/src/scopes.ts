/**
 * The secrets API's scopes: identity registers the API with them (its `bootstrap`) and grants them
 * to the clients below; the secrets service requires them of bearer tokens (read: list and show,
 * write: share, burn, request).
 */
export const SECRETS_SCOPES = { read: 'secrets:read', write: 'secrets:write' } as const;
export type SecretsScope = (typeof SECRETS_SCOPES)[keyof typeof SECRETS_SCOPES];

/** Both, in the order a registration or a token request lists them. */
export const ALL_SECRETS_SCOPES: readonly SecretsScope[] = [SECRETS_SCOPES.read, SECRETS_SCOPES.write];

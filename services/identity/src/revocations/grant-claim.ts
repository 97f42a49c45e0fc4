import type { Configuration } from 'oidc-provider';

type ExtraTokenClaims = NonNullable<Configuration['extraTokenClaims']>;

/**
 * Adds `grant_id` to access tokens issued under a grant (authorization code and its refresh
 * tokens, client-credentials refresh tokens): resource servers refuse every token of a revoked
 * grant by it (ADR 10). It is the grant's id, which is no credential (no endpoint takes it; ADR 8
 * keeps it in clear in `oidc_models.grant_id`). Client-credentials tokens have no grant.
 */
export function withGrantClaim(extraTokenClaims: Configuration['extraTokenClaims']): ExtraTokenClaims {
  return async (ctx, token) => {
    const claims = await extraTokenClaims?.(ctx, token);
    const grantId = token.kind === 'AccessToken' ? (token as { grantId?: unknown }).grantId : undefined;
    if (typeof grantId !== 'string') return claims;
    return { ...claims, grant_id: grantId };
  };
}

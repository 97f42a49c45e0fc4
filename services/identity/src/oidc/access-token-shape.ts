import type { KoaContextWithOIDC } from 'oidc-provider';
import { oidcScopesOf } from './token-envelope.js';

/**
 * Keycloak's token shape (what keycloak-connect checks and keycloak-js reads): access tokens say
 * `typ: Bearer`, name the client in `azp`, carry the session in `sid`, and the roles in
 * `realm_access` / `resource_access`, present even when empty (Hush has no roles).
 */
export function keycloakAccessClaims(token: { clientId?: string | undefined; sid?: string | undefined }): Record<string, unknown> {
  return {
    typ: 'Bearer',
    ...(token.clientId ? { azp: token.clientId } : {}),
    ...(token.sid ? { sid: token.sid } : {}),
    realm_access: { roles: [] },
    resource_access: {},
  };
}

type JwtAccessToken = { clientId?: string; sid?: string; kind: string };
type Structured = { payload: Record<string, unknown> };

/**
 * oidc-provider's `formats.customizers.jwt`: API access tokens get Keycloak's claims, and their
 * `scope` names the OpenID scopes granted with the API's (Keycloak's does; userinfo then knows the
 * token carries `openid`).
 */
export function shapeJwtAccessToken(ctx: KoaContextWithOIDC | undefined, token: JwtAccessToken, jwt: Structured): void {
  // Admin API tokens bring their realm-management roles (access-token-claims.ts); others none.
  const resourceAccess = jwt.payload['resource_access'];
  Object.assign(jwt.payload, keycloakAccessClaims(token));
  if (resourceAccess !== undefined) jwt.payload['resource_access'] = resourceAccess;
  if (token.kind !== 'AccessToken' || !ctx?.oidc) return;
  const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
  const requested = oidcScopesOf(source?.scope ?? (typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : undefined));
  const granted = ctx.oidc.grant ? ctx.oidc.grant.getOIDCScopeFiltered(new Set(requested)) : '';
  if (!granted) return;
  const api = typeof jwt.payload['scope'] === 'string' ? jwt.payload['scope'] : '';
  jwt.payload['scope'] = [granted, api].filter(Boolean).join(' ');
}

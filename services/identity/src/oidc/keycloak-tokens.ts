import type { KoaContextWithOIDC } from 'oidc-provider';
import { clientMetadata } from './client-metadata.js';
import { accessTokenEnvelope, looksLikeJwt, oidcScopesOf, refreshTokenEnvelope, type EnvelopeKeys, type StoredTokenFacts } from './token-envelope.js';

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
  Object.assign(jwt.payload, keycloakAccessClaims(token));
  if (token.kind !== 'AccessToken' || !ctx?.oidc) return;
  const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
  const requested = oidcScopesOf(source?.scope ?? (typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : undefined));
  const granted = ctx.oidc.grant ? ctx.oidc.grant.getOIDCScopeFiltered(new Set(requested)) : '';
  if (!granted) return;
  const api = typeof jwt.payload['scope'] === 'string' ? jwt.payload['scope'] : '';
  jwt.payload['scope'] = [granted, api].filter(Boolean).join(' ');
}

type StoredEntity = {
  jti?: string;
  clientId?: string;
  accountId?: string;
  scope?: string;
  sid?: string;
  iat?: number;
  exp?: number;
  expiration?: number;
  extra?: Record<string, unknown>;
};

function facts(entity: StoredEntity, id: string): StoredTokenFacts {
  const iat = entity.iat ?? Math.floor(Date.now() / 1000);
  return {
    id,
    clientId: entity.clientId ?? '',
    accountId: entity.accountId,
    scope: entity.scope,
    sid: entity.sid,
    iat,
    exp: entity.exp ?? iat + (entity.expiration ?? 0),
  };
}

/**
 * Token responses as Keycloak's: opaque tokens wrapped in their JWT envelopes (token-envelope.ts),
 * `Pragma: no-cache` beside `Cache-Control: no-store` (RFC 6749 §5.1), and `unauthorized_client`
 * for a grant type the client may not use (RFC 6749 §5.2; oidc-provider says invalid_request).
 */
export function keycloakTokenResponses(keys: () => EnvelopeKeys, defaultAlg: string) {
  return async function shapeTokenResponse(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'token') return;
    ctx.set('pragma', 'no-cache');
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.status === 400 && body?.['error'] === 'invalid_request' && body['error_description'] === 'requested grant type is not allowed for this client') {
      body['error'] = 'unauthorized_client';
      return;
    }
    if (ctx.status !== 200 || !body) return;
    const client = ctx.oidc.client;
    const alg = (client && (clientMetadata(client)['id_token_signed_response_alg'] as string | undefined)) ?? defaultAlg;

    const access = body['access_token'];
    if (typeof access === 'string' && !looksLikeJwt(access)) {
      const entity = (ctx.oidc.entities.AccessToken ?? ctx.oidc.entities.ClientCredentials) as StoredEntity | undefined;
      if (entity) {
        const user = entity.accountId && entity.accountId !== entity.clientId;
        body['access_token'] = await accessTokenEnvelope(keys(), alg, facts(entity, access), {
          ...(user ? (entity.extra ?? {}) : {}),
          ...keycloakAccessClaims(entity),
        });
      }
    }
    const refresh = body['refresh_token'];
    const stored = ctx.oidc.entities.RefreshToken as StoredEntity | undefined;
    if (typeof refresh === 'string' && stored) body['refresh_token'] = await refreshTokenEnvelope(keys(), facts(stored, refresh));
  };
}

import type { KoaContextWithOIDC } from 'oidc-provider';
import { keycloakAccessClaims } from '../access-token-shape.js';
import { clientMetadata } from '../client-metadata.js';
import { answerUnauthorizedClient } from '../grant-type-refusal.js';
import { accessTokenEnvelope, looksLikeJwt, refreshTokenEnvelope, type EnvelopeKeys, type StoredTokenFacts } from '../token-envelope.js';

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
 * Token responses as Keycloak's: opaque tokens wrapped in their JWT envelopes (../token-envelope.ts),
 * `Pragma: no-cache` beside `Cache-Control: no-store` (RFC 6749 §5.1), and `unauthorized_client`
 * for a grant type the client may not use (../grant-type-refusal.ts).
 */
export function keycloakTokenResponses(keys: () => EnvelopeKeys, defaultAlg: string) {
  return async function shapeTokenResponse(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'token') return;
    ctx.set('pragma', 'no-cache');
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.status !== 200 || !body) {
      answerUnauthorizedClient(ctx);
      return;
    }
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

import { hash } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { AdapterPayload, KoaContextWithOIDC } from 'oidc-provider';
import { randomToken } from '@hush/common';
import { clientMetadata } from '../client-metadata.js';

/**
 * The interface (docs/api.md) returns a refresh_token from the client-credentials grant. RFC 6749
 * §4.4.3 says SHOULD NOT, and oidc-provider never does; Keycloak offers it per client ("use
 * refresh tokens for client credentials grant"). For clients with that setting we save a Grant
 * for the client's service account and a RefreshToken bound to the API, after the library has
 * issued the access token. The library's own refresh grant, rotation, introspection and
 * revocation then apply to it unchanged.
 *
 * One grant per (client, API), and each request's refresh token replaces the one before (ADR 8):
 * a client that asks for a token on every call would otherwise leave a grant and a refresh token
 * living 14 days behind each call.
 *
 * Both are saved through the models' adapters as the payloads the models' own `save()` writes
 * (`serviceGrantPayloads`; client-credentials-refresh.test.ts holds the two to each other), without
 * building model instances on every token request (docs/performance.md, the token endpoint).
 * `ttl`: the Grant's and the RefreshToken's lifetime (oidc-provider's `ttl.Grant` and
 * `ttl.RefreshToken`, both REFRESH_TOKEN_TTL).
 */
export function clientCredentialsRefresh(provider: Provider, ttl: number) {
  return async function addRefreshToken(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || ctx.oidc.params?.grant_type !== 'client_credentials') return;
    const client = ctx.oidc.client;
    if (!client || !client.grantTypeAllowed('refresh_token') || clientMetadata(client)['client_credentials_refresh'] !== true) return;
    const token = ctx.oidc.entities.ClientCredentials;
    const resource = ctx.oidc.params.resource as string | undefined;
    if (!token?.scope || typeof resource !== 'string') return;

    const { grant, refreshToken } = serviceGrantPayloads(client.clientId, resource, token.scope, ttl);
    // Saving it deletes the grant's earlier refresh tokens (see replacesEarlierRefreshTokens).
    await Promise.all([provider.Grant.adapter.upsert(grant.jti, grant, ttl), provider.RefreshToken.adapter.upsert(refreshToken.jti, refreshToken, ttl)]);
    ctx.oidc.entity('RefreshToken', refreshToken);
    (ctx.body as Record<string, unknown>)['refresh_token'] = refreshToken.jti;
  };
}

type Stored = AdapterPayload & { jti: string; iat: number; exp: number };

/**
 * The service account's Grant for one API and a new RefreshToken of it, as oidc-provider's
 * `new Grant(…).addResourceScope(…).save()` and `new RefreshToken(…).save()` store them. The
 * service account's id is the client id (client ids can never look like user ids); the refresh
 * token's id is 256 random bits, as oidc-provider draws its own.
 */
export function serviceGrantPayloads(clientId: string, resource: string, scope: string, ttl: number): { grant: Stored; refreshToken: Stored } {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ttl;
  const grantId = serviceGrantId(clientId, resource);
  return {
    grant: { iat, exp, jti: grantId, kind: 'Grant', accountId: clientId, clientId, resources: { [resource]: scope } },
    refreshToken: {
      iat,
      exp,
      jti: randomToken(32),
      kind: 'RefreshToken',
      clientId,
      accountId: clientId,
      grantId,
      scope,
      resource,
      gty: 'client_credentials',
      expiresWithSession: false,
      iiat: iat,
    },
  };
}

/**
 * The grant of a client's service account for one API: the same id on every request, so saving
 * it overwrites the previous one. Not a credential (no endpoint takes a grant id), only a name.
 */
export function serviceGrantId(clientId: string, resource: string): string {
  return `cc.${hash('sha256', `${clientId}\u0000${resource}`, 'base64url')}`;
}

/**
 * Read by the adapter: a refresh token the client-credentials grant has just issued replaces every
 * earlier refresh token of its grant, deleted in the statement that saves it (one statement for a
 * whole batch of token responses, where a separate DELETE per request halved throughput). Tokens
 * it rotates into carry `client_credentials refresh_token` and replace nothing.
 */
export function replacesEarlierRefreshTokens(model: string, payload: AdapterPayload): boolean {
  return model === 'RefreshToken' && payload.gty === 'client_credentials';
}

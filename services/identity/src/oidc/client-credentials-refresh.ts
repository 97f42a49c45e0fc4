import { randomFillSync } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { clientMetadata } from './client-metadata.js';

/**
 * The interface (spec 4.1) returns a refresh_token from the client-credentials grant. RFC 6749
 * §4.4.3 says SHOULD NOT, and oidc-provider never does; Keycloak offers it per client ("use
 * refresh tokens for client credentials grant"). For clients with that setting we save a Grant
 * for the client's service account and a RefreshToken bound to the API, after the library has
 * issued the access token. The library's own refresh grant, rotation, introspection and
 * revocation then apply to it unchanged.
 */
export function clientCredentialsRefresh(provider: Provider) {
  return async function addRefreshToken(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || ctx.oidc.params?.grant_type !== 'client_credentials') return;
    const client = ctx.oidc.client;
    if (!client || !client.grantTypeAllowed('refresh_token') || clientMetadata(client)['client_credentials_refresh'] !== true) return;
    const token = ctx.oidc.entities.ClientCredentials;
    const resource = ctx.oidc.params.resource as string | undefined;
    if (!token?.scope || typeof resource !== 'string') return;

    // The service account's id is the client id (client ids can never look like user ids).
    const grant = new provider.Grant({ accountId: client.clientId, clientId: client.clientId });
    grant.addResourceScope(resource, token.scope);
    // Choose the grant id up front (the model would at save time) so both rows are written at once.
    const grantId = newGrantId();
    grant.jti = grantId;
    const refreshToken = new provider.RefreshToken({
      client,
      accountId: client.clientId,
      grantId,
      scope: token.scope,
      resource,
      gty: 'client_credentials',
      expiresWithSession: false,
    } as ConstructorParameters<typeof provider.RefreshToken>[0]);
    const [, value] = await Promise.all([grant.save(), refreshToken.save()]);
    (ctx.body as Record<string, unknown>)['refresh_token'] = value;
  };
}

/**
 * 256-bit random grant ids, cut from a buffer that one `randomFillSync` fills for 128 of them
 * (nanoid, which oidc-provider uses for its own ids, pools the same way): one CSPRNG call per id
 * cost more than the rest of the id's handling.
 */
const ID_BYTES = 32;
const pool = Buffer.alloc(ID_BYTES * 128);
let offset = pool.length;

function newGrantId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += ID_BYTES;
  return pool.toString('base64url', offset - ID_BYTES, offset);
}

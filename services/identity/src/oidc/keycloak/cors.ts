import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { clientMetadata } from '../client-metadata.js';
import { ROUTES } from '../routes.js';
import { resolveWebOrigins } from '../../clients/index.js';

/**
 * Credentialed CORS as Keycloak answers it, for each client's registered web origins (`+`: the
 * origins of its redirect URIs). Rules:
 * - an actual request to the token, userinfo, logout, introspection, revocation or device
 *   endpoint gets `Access-Control-Allow-Origin: <origin>` and `Access-Control-Allow-Credentials:
 *   true` only when the client the request turned out to be for (authenticated, named, or the
 *   token's client at userinfo) registers that origin; otherwise no CORS header at all, whatever
 *   oidc-provider set on the way (it reflects the origin before it knows the client);
 * - oidc-provider refuses (`invalid_request`) a client's request from an origin the client does
 *   not register, through `clientBasedCORS` below;
 * - a preflight names no client, so it is answered for an origin some client registers, and
 *   gets no CORS header for any other;
 * - `Origin: null` (sandboxed frames, file: pages) is never an origin anyone registered.
 */
const CORS_ROUTES: readonly string[] = [ROUTES.token, ROUTES.userinfo, ROUTES.end_session, ROUTES.introspection, ROUTES.revocation, ROUTES.device_authorization];
const METHODS = 'GET, POST, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, DPoP';
const PREFLIGHT_MAX_AGE = '3600';
const CORS_HEADERS = ['Access-Control-Allow-Origin', 'Access-Control-Allow-Credentials', 'Access-Control-Expose-Headers'];

/** The client's web origins, `+` resolved. */
export function clientWebOrigins(client: Client): string[] {
  const meta = clientMetadata(client);
  return resolveWebOrigins((meta['web_origins'] as string[] | undefined) ?? [], client.redirectUris ?? []);
}

/** oidc-provider's `clientBasedCORS`: the origin must be one of the client's web origins. */
export function clientBasedCORS(_ctx: KoaContextWithOIDC, origin: string, client: Client): boolean {
  return origin !== 'null' && clientWebOrigins(client).includes(origin);
}

export function credentialedCors(deps: { isWebOrigin(origin: string): Promise<boolean> }) {
  return async function cors(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (!CORS_ROUTES.includes(ctx.path)) return next();
    ctx.vary('Origin');
    const origin = ctx.get('Origin');

    if (ctx.method === 'OPTIONS' && origin && ctx.get('Access-Control-Request-Method')) {
      ctx.status = 204;
      if (origin !== 'null' && (await deps.isWebOrigin(origin))) {
        ctx.set({
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Credentials': 'true',
          'Access-Control-Allow-Methods': METHODS,
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
        });
      }
      return;
    }

    await next();
    const client = ctx.oidc?.client;
    if (origin && client && clientBasedCORS(ctx, origin, client)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
    } else {
      for (const header of CORS_HEADERS) ctx.remove(header);
    }
  };
}

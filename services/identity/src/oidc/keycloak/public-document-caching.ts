import type { KoaContextWithOIDC } from 'oidc-provider';

/** How long shared caches may keep the discovery document: it changes only with a deployment. */
export const DISCOVERY_MAX_AGE = 300;

/**
 * `Cache-Control` for the two public documents. The JWKS may be kept at most `jwksMaxAge` seconds:
 * a new key is published two reload intervals before it signs (ADR 4), and a verifier must have
 * seen it by then, so this must not exceed one reload interval.
 */
export function publicDocumentCaching(jwksMaxAge: number) {
  return async function cacheControl(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.status !== 200) return;
    const route = ctx.oidc?.route;
    if (route === 'discovery') ctx.set('cache-control', `public, max-age=${DISCOVERY_MAX_AGE}`);
    else if (route === 'jwks') ctx.set('cache-control', `public, max-age=${jwksMaxAge}`);
  };
}

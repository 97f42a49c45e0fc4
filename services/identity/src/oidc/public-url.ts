import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Every URL oidc-provider builds (discovery's endpoints, the address the login page returns the
 * browser to, redirects) is resolved against the request's `href`, which Koa derives from the
 * Host header, or X-Forwarded-Host/-Proto when the proxy is trusted. A forged header would then be
 * published, and kept by any shared cache in front of us. Koa's documented extension point,
 * `app.request` (the prototype of every `ctx.request`, including the contexts made for the login
 * pages), answers from the configured public origin instead.
 *
 * The protocol Koa reports is left alone: it decides whether cookies may be `Secure`, which must
 * follow the connection, not the configuration.
 */
export function pinPublicOrigin(provider: Provider, publicUrl: string): void {
  const { origin, host, hostname } = new URL(publicUrl);
  Object.defineProperties(provider.request, {
    href: {
      get(this: { originalUrl: string }) {
        // An absolute-form request target (`GET http://evil.test/… HTTP/1.1`) keeps its path only.
        return origin + this.originalUrl.replace(/^https?:\/\/[^/?#]*/i, '');
      },
    },
    host: { get: () => host },
    hostname: { get: () => hostname },
  });
}

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

import type Provider from 'oidc-provider';

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

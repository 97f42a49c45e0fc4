import type Provider from 'oidc-provider';
import { forwardedClient, type TrustFunction } from '@hush/common';

/**
 * Koa's own proxy trust is all or nothing (`app.proxy`): trusted, any peer's X-Forwarded-For names
 * the client, and with it the IP the client-authentication limits and the events count. Koa's
 * documented extension point `app.request` (see public-url.ts) answers `ip` and `protocol` instead
 * from the same trust function as Express (TRUST_PROXY), so the protocol routes, which skip
 * Express (direct-dispatch.ts), and the login pages see one client. With `app.proxy` off, Koa's
 * own `ips` stays empty and X-Forwarded-Host is never read (the host is pinned anyway).
 */
export function trustForwardedFrom(provider: Provider, trust: TrustFunction): void {
  provider.proxy = false;
  type KoaRequest = { req: Parameters<typeof forwardedClient>[0] };
  // Read several times per request (the limits, the events, oidc-provider): worked out once.
  const known = new WeakMap<KoaRequest['req'], ReturnType<typeof forwardedClient>>();
  const clientOf = (req: KoaRequest['req']) => {
    let found = known.get(req);
    if (!found) known.set(req, (found = forwardedClient(req, trust)));
    return found;
  };
  Object.defineProperties(provider.request, {
    ip: {
      get(this: KoaRequest) {
        return clientOf(this.req).ip;
      },
    },
    protocol: {
      get(this: KoaRequest) {
        return clientOf(this.req).protocol;
      },
    },
  });
}

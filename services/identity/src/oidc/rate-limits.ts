import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { parseBasicClientAuth } from '@hush/common';
import type { FailureLimits } from '../ratelimit/failure-limits.js';

/**
 * Brute-force protection on client authentication (RFC 6749 §2.3.1, RFC 6819 §5.2.3.7):
 * failed attempts are counted per (client_id, IP) and per IP; past either limit the endpoint answers
 * 429 with Retry-After and `temporarily_unavailable` until the window ends, even for the right
 * secret, so a guesser learns nothing while blocked.
 */
const AUTHENTICATED_ROUTES = new Set(['token', 'introspection', 'revocation']);

export class TooManyAttempts extends errors.OIDCProviderError {
  constructor(readonly retryAfter: number) {
    super(429, 'temporarily_unavailable');
    this.error_description = `too many failed client authentications; retry after ${retryAfter} seconds`;
  }
}

/**
 * Koa middleware for provider.use(): counts failed client authentications. The check itself runs
 * in Client#compareClientSecret (below), where the client id is known however it was sent, so a
 * token request costs one Redis round trip.
 */
export function clientAuthLimiter(failures: FailureLimits) {
  const { perClient, perIp } = failures.client;
  return async function limitClientAuth(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();

    const body = ctx.body as { error?: string } | undefined;
    if (ctx.status === 401 && body?.error === 'invalid_client' && AUTHENTICATED_ROUTES.has(ctx.oidc?.route ?? '')) {
      const clientId =
        ctx.oidc?.client?.clientId ?? (ctx.oidc?.params?.client_id as string | undefined) ?? parseBasicClientAuth(ctx.get('authorization'))?.clientId;
      await failures.limits.penalize([{ limit: perIp, key: ctx.ip }, ...(clientId ? [{ limit: perClient, key: `${clientId}:${ctx.ip}` }] : [])]);
    }
  };
}

/** Called from Client#compareClientSecret, before the secret is compared. */
export async function assertClientNotBlocked(failures: FailureLimits, clientId: string): Promise<void> {
  const ctx = Provider.ctx;
  const ip = ctx?.ip ?? 'unknown';
  const wait = await failures.limits.retryAfter([
    { limit: failures.client.perClient, key: `${clientId}:${ip}` },
    { limit: failures.client.perIp, key: ip },
  ]);
  if (wait > 0) {
    ctx?.set('Retry-After', String(wait));
    throw new TooManyAttempts(wait);
  }
}

import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { FailureLimiter } from '../ratelimit/failure-limiter.js';

/**
 * Brute-force protection on client authentication (RFC 6749 §2.3.1, RFC 6819 §5.2.3.7):
 * failed attempts are counted per (client_id, IP) and per IP; past either limit the endpoint answers
 * 429 with Retry-After and `temporarily_unavailable` until the window ends, even for the right
 * secret, so a guesser learns nothing while blocked.
 */
export interface ClientAuthLimits {
  perClient: number;
  perIp: number;
}

const AUTHENTICATED_ROUTES = new Set(['token', 'introspection', 'revocation']);

export class TooManyAttempts extends errors.OIDCProviderError {
  constructor(readonly retryAfter: number) {
    super(429, 'temporarily_unavailable');
    this.error_description = `too many failed client authentications; retry after ${retryAfter} seconds`;
  }
}

const clientKey = (clientId: string, ip: string) => ({ key: `client:${clientId}:${ip}` });
const ipKey = (ip: string) => ({ key: `client-ip:${ip}` });

/**
 * Koa middleware for provider.use(): counts failed client authentications. The check itself runs
 * in Client#compareClientSecret (below), where the client id is known however it was sent, so a
 * token request costs one Redis round trip.
 */
export function clientAuthLimiter(limiter: FailureLimiter, limits: ClientAuthLimits) {
  return async function limitClientAuth(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();

    const body = ctx.body as { error?: string } | undefined;
    if (ctx.status === 401 && body?.error === 'invalid_client' && AUTHENTICATED_ROUTES.has(ctx.oidc?.route ?? '')) {
      const clientId = ctx.oidc?.client?.clientId ?? (ctx.oidc?.params?.client_id as string | undefined) ?? basicClientId(ctx);
      await limiter.recordFailure([
        { ...ipKey(ctx.ip), max: limits.perIp },
        ...(clientId ? [{ ...clientKey(clientId, ctx.ip), max: limits.perClient }] : []),
      ]);
    }
  };
}

/** Called from Client#compareClientSecret, before the secret is compared. */
export async function assertClientNotBlocked(limiter: FailureLimiter, limits: ClientAuthLimits, clientId: string): Promise<void> {
  const ctx = Provider.ctx;
  const ip = ctx?.ip ?? 'unknown';
  const wait = await limiter.retryAfter([
    { ...clientKey(clientId, ip), max: limits.perClient },
    { ...ipKey(ip), max: limits.perIp },
  ]);
  if (wait > 0) {
    ctx?.set('Retry-After', String(wait));
    throw new TooManyAttempts(wait);
  }
}

function basicClientId(ctx: KoaContextWithOIDC): string | undefined {
  const header = ctx.get('authorization');
  if (!/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon));
  } catch {
    return undefined;
  }
}

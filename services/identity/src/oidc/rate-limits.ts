import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { errorPage, parseBasicClientAuth, randomToken, securePage, sha256, type LimitCheck } from '@hush/common';
import { clientSecretMatches, hashClientSecret } from '../clients/client-secret.js';
import type { FailureLimits } from '../ratelimit/failure-limits.js';

/**
 * Failed client authentications (RFC 6749 §2.3.1, RFC 6819 §5.2.3.7).
 *
 * Client secrets are 256-bit random values, so guessing one is hopeless: the limiter is there to
 * make a failing caller back off (429 with Retry-After instead of another 401) and to keep the
 * noise it makes bounded, not to guard the secret. Hence:
 * - a block applies to failed attempts only: the presented secret is always compared, and a right
 *   one is never refused because of anyone's failures (a shared address, a neighbour's typo,
 *   someone trying to lock a client out);
 * - failures are counted per IP and per client bucket (a hash of the presented client id into a
 *   fixed space of CLIENT_AUTH_BUCKETS), so made-up ids cannot add Redis keys without bound and a
 *   known id is counted exactly like an unknown one; two clients sharing a bucket share only the
 *   back-off of their failing requests;
 * - an unknown client id costs the same work as a known one with a wrong secret (a hash of the
 *   presented secret and the same read of the counters), and gets the same answer at every step.
 * A blocked failure is not counted again: nothing is written while a caller keeps failing.
 */
const AUTHENTICATED_ROUTES = new Set(['token', 'introspection', 'revocation']);

/** Compared with when the client id is unknown, so that costs what a wrong secret costs. */
const DECOY_HASH = hashClientSecret(randomToken(32));

/** What the counters said (seconds blocked, 0 if not) when this request's secret was compared. */
const checked = new WeakMap<KoaContextWithOIDC, number>();

function checksFor(failures: FailureLimits, clientId: string | undefined, ip: string): LimitCheck[] {
  const bucket = sha256(clientId ?? '').readUInt32BE(0) % failures.client.buckets;
  return [
    { limit: failures.client.perClient, key: String(bucket) },
    { limit: failures.client.perIp, key: ip },
  ];
}

/**
 * Compares the presented secret while the counters are read (one MGET, concurrent with the hash,
 * so a successful request waits for nothing more than before and a failed one knows whether it is
 * blocked without another round trip).
 */
async function compareAndCheck(failures: FailureLimits, ctx: KoaContextWithOIDC | undefined, clientId: string | undefined, presented: string, storedHash: string) {
  const pending = failures.limits.retryAfter(checksFor(failures, clientId, ctx?.ip ?? 'unknown'));
  const matches = clientSecretMatches(presented, storedHash);
  const wait = await pending;
  if (ctx) checked.set(ctx, wait);
  return matches;
}

/** Client#compareClientSecret: stored secrets are SHA-256 hashes (clients/client-secret.ts). */
export function compareClientSecret(failures: FailureLimits, clientId: string, presented: string, storedHash: string): Promise<boolean> {
  return compareAndCheck(failures, Provider.ctx, clientId, presented, storedHash);
}

/** The client id and secret as the caller sent them, in the body or with HTTP Basic. */
function presentedCredentials(ctx: KoaContextWithOIDC): { clientId: string | undefined; secret: string } {
  const params = ctx.oidc?.params;
  const fromBody = typeof params?.['client_id'] === 'string' ? params['client_id'] : undefined;
  const basicAuth = parseBasicClientAuth(ctx.get('authorization'));
  const secret = typeof params?.['client_secret'] === 'string' ? params['client_secret'] : (basicAuth?.clientSecret ?? '');
  return { clientId: fromBody ?? basicAuth?.clientId, secret };
}

/**
 * Koa middleware for provider.use(): decides how a failed client authentication is answered.
 * Unknown client ids (and clients that use no secret) never reach compareClientSecret, so they do
 * the same comparison here, against a decoy.
 */
export function clientAuthLimiter(failures: FailureLimits) {
  return async function limitClientAuth(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();

    // On these routes a 401 is always invalid_client, whether answered in JSON or as a page.
    if (ctx.status !== 401 || !AUTHENTICATED_ROUTES.has(ctx.oidc?.route ?? '')) return;

    const { clientId, secret } = presentedCredentials(ctx);
    let wait = checked.get(ctx);
    if (wait === undefined) {
      await compareAndCheck(failures, ctx, clientId, secret, DECOY_HASH);
      wait = checked.get(ctx) ?? 0;
    }
    if (wait > 0) {
      tooManyAttempts(ctx, wait);
      return;
    }
    await failures.limits.penalize(checksFor(failures, clientId, ctx.ip));
  };
}

/** Turns the 401 into a 429 with Retry-After, in the form the provider answered the 401 (JSON or a page). */
function tooManyAttempts(ctx: KoaContextWithOIDC, wait: number): void {
  const error = 'temporarily_unavailable';
  const description = `too many failed client authentications; retry after ${wait} seconds`;
  const html = Boolean(ctx.response.is('html'));
  ctx.status = 429;
  ctx.set('Retry-After', String(wait));
  ctx.remove('WWW-Authenticate');
  ctx.body = html ? errorPage({ status: 429, code: error, message: description, nonce: securePage(ctx.req, ctx.res) }) : { error, error_description: description };
}

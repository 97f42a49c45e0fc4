import type { KoaContextWithOIDC } from 'oidc-provider';
import { randomToken, sha256, type LimitCheck, type RateLimit, type RateLimits } from '@hush/common';
import type { Config } from '../config.js';
import { clientSecretMatches, hashClientSecret } from './client-secret.js';

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
 *   presented secret and the same read of the counters), and gets the same answer at every step;
 * - a failure is counted and answered in one atomic step (RateLimits#take: 401 within the limit,
 *   429 past it), never counted after an answer read earlier: of any number of failures at once,
 *   no more than the limit are answered 401.
 * A failure the counters' read already found blocked is not counted again: nothing is written
 * while a caller keeps failing.
 */

/** The counters of failed client authentications, in AUTH_FAILURE_WINDOW windows shared by every instance (Redis). */
export interface ClientAuthLimits {
  limits: RateLimits;
  client: { perClient: RateLimit; perIp: RateLimit; buckets: number };
}

type ClientAuthLimitsConfig = Pick<Config, 'AUTH_FAILURE_WINDOW' | 'CLIENT_AUTH_MAX_FAILURES' | 'CLIENT_AUTH_MAX_FAILURES_PER_IP' | 'CLIENT_AUTH_BUCKETS'>;

/** The client authentication limits, defined on the failure counters (`limits`, shared with the sign-in limits). */
export function clientAuthLimits(limits: RateLimits, config: ClientAuthLimitsConfig): ClientAuthLimits {
  const window = config.AUTH_FAILURE_WINDOW;
  return {
    limits,
    client: {
      perClient: limits.define('client', config.CLIENT_AUTH_MAX_FAILURES, window),
      perIp: limits.define('client-ip', config.CLIENT_AUTH_MAX_FAILURES_PER_IP, window),
      buckets: config.CLIENT_AUTH_BUCKETS,
    },
  };
}

/** Compared with when the client id is unknown, so that costs what a wrong secret costs. */
export const DECOY_HASH = hashClientSecret(randomToken(32));

/** What the counters said when this request's secret was compared, kept on the request's own context. */
export interface ClientAuthState {
  /** Seconds the caller is blocked for (0 if not); absent until a secret was compared. */
  clientAuthRetryAfter?: number;
}

export function clientAuthState(ctx: KoaContextWithOIDC): ClientAuthState {
  return ctx.state;
}

export function checksFor(failures: ClientAuthLimits, clientId: string | undefined, ip: string): LimitCheck[] {
  const bucket = sha256(clientId ?? '').readUInt32BE(0) % failures.client.buckets;
  return [
    { limit: failures.client.perClient, key: String(bucket) },
    { limit: failures.client.perIp, key: ip },
  ];
}

/**
 * Compares the presented secret with a stored hash (clients/client-secret.ts) while the counters
 * are read (one MGET, concurrent with the hash, so a successful request waits for nothing more
 * and a failed one knows whether it is blocked without another round trip); the counters' answer
 * goes on the request's context for the limiter (keycloak/client-auth-limiter.ts).
 */
export async function compareAndCheck(
  failures: ClientAuthLimits,
  ctx: KoaContextWithOIDC | undefined,
  clientId: string | undefined,
  presented: string,
  storedHash: string,
): Promise<boolean> {
  const pending = failures.limits.retryAfter(checksFor(failures, clientId, ctx?.ip ?? 'unknown'));
  const matches = clientSecretMatches(presented, storedHash);
  const wait = await pending;
  if (ctx) clientAuthState(ctx).clientAuthRetryAfter = wait;
  return matches;
}

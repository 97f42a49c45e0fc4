import type { JWTPayload } from 'jose';
import type { RevocationFeed } from '../revocations/revocation-feed.js';

/**
 * The address a person's access token vouches for, checked when the request is served: a
 * recipient-only secret trusts nothing less. Kept only when
 * - the token says `email_verified: true` (identity verified it when the token was issued), and
 * - identity has not announced, since the token was issued, that the account's address changed
 *   or was unverified (ADR 10's `address` events, in memory: no call to identity per request;
 *   a map lookup, skipped while no address changed in the last day).
 * While the feed is out of sync no address is trusted: a bearer token is refused anyway (503),
 * and a web session loses its address until the feed is back (the recipient can still ask for a
 * one-time code).
 */
export function verifiedAddress(claims: JWTPayload, feed: Pick<RevocationFeed, 'addressStatus'>): { email?: string } {
  const email = claims['email'];
  if (claims['email_verified'] !== true || typeof email !== 'string' || email === '') return {};
  return feed.addressStatus(claims) === 'valid' ? { email } : {};
}

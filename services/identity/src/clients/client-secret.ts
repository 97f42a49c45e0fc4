import { timingSafeEqual } from 'node:crypto';
import { randomToken, sha256 } from '@hush/common';

/**
 * Client secrets carry 256 bits of entropy, so a single SHA-256 is enough to make a stolen hash
 * useless (there is nothing to brute-force), and it costs microseconds on the token hot path,
 * unlike bcrypt. See docs/adr/0003-client-secret-hashing.md.
 */
export function newClientSecret(): { secret: string; hash: string } {
  const secret = randomToken(32);
  return { secret, hash: hashClientSecret(secret) };
}

export function hashClientSecret(secret: string): string {
  return sha256(secret).toString('hex');
}

/** The two digests compared in constant time (a stored hash is always 32 bytes; anything else matches nothing). */
export function clientSecretMatches(presented: string, storedHash: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === 32 && timingSafeEqual(sha256(presented), stored);
}

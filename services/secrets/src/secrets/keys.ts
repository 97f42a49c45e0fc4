import { randomBytes, sha256 } from '@hush/common';

/**
 * Secret, metadata and request keys: 31 lowercase base36 characters, the shape Onetime Secret's
 * clients expect. They are capabilities: the database keeps only their hashes.
 *
 * A key names the hour it was made in: its first 3 characters are the hour (counted from the
 * Unix epoch, modulo HOURS, so `u00` to `zzz`), the other 28 carry 144 random bits. Its stored
 * hash is that hour as 2 bytes followed by the key's SHA-256, so the hashes of one hour sort
 * together: a share writes into the few index pages of the current hour, not into a random page
 * of indexes of gigabytes, and a read of a recent secret finds its pages in memory
 * (docs/performance.md, "Keys that name their hour"). The hour tells a holder of the key when it
 * was made, nothing more; the 6 characters a list shows (metadata_shortkey) leave 25 random ones,
 * 129 bits, unknown.
 *
 * Keys of the plain form, 160 random bits written in base36, may still be stored: every such
 * number is below 2^160 < 30 * 36^30, so they start with `0` to `t`, never with `u` to `z`; their
 * hash is the plain SHA-256 of the key.
 */
export const KEY_LENGTH = 31;
export const KEY_PATTERN = /^[0-9a-z]{31}$/;

/** How many hours the prefix counts before it starts again (324 days, longer than anything is kept). */
export const HOURS = 6 * 36 * 36;
/** `u00`: the first hour prefix (`u` is 30 in base36). */
const FIRST_PREFIX = 30 * 36 * 36;
const RANDOM_LENGTH = 28;
const HOUR_KEY = /^[u-z][0-9a-z]{2}/;

/** The hour number (modulo HOURS) of `at` (milliseconds since the epoch). */
export const hourOf = (at: number): number => Math.floor(at / 3_600_000) % HOURS;

export function newKey(now: number = Date.now()): string {
  const random = BigInt(`0x${randomBytes(18).toString('hex')}`)
    .toString(36)
    .padStart(RANDOM_LENGTH, '0');
  return (FIRST_PREFIX + hourOf(now)).toString(36) + random;
}

export const isKey = (value: string): boolean => KEY_PATTERN.test(value);

/** What the database holds of a key: its hour (2 bytes) and SHA-256; the SHA-256 alone for a key of the plain form. */
export function hashKey(key: string): Buffer {
  const digest = sha256(key);
  if (!HOUR_KEY.test(key)) return digest;
  const hashed = Buffer.allocUnsafe(2 + digest.length);
  hashed.writeUInt16BE(parseInt(key.slice(0, 3), 36) - FIRST_PREFIX, 0);
  digest.copy(hashed, 2);
  return hashed;
}

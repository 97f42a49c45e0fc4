import { ConfigError, constantTimeEqual, deriveKey } from '@hush/common';
import type { KeyFingerprintRepository } from './key-fingerprint.repository.js';

/**
 * The database holds values, metadata and outbox rows sealed under keys derived from MASTER_KEY.
 * Started with another MASTER_KEY, the service would fail on every stored secret, and seal new
 * ones no one can read with the old key. The first start records a fingerprint of the key in the
 * database; every start compares, and refuses, naming the variable, when they differ. (Identity
 * needs no table for this: its signing keys, made by `migrate`, are sealed under its MASTER_KEY
 * and refuse to open under another at start, keys/keys.ts.)
 */

/** HKDF `info` of the fingerprint: a one-way value, so the database learns nothing of the key. */
const FINGERPRINT_LABEL = 'hush key fingerprint v1';

/** The fingerprint of a root key: 16 bytes of HKDF-SHA256 output, hex. */
export function keyFingerprint(key: Buffer): string {
  return deriveKey(key, FINGERPRINT_LABEL).subarray(0, 16).toString('hex');
}

/** The database was set up with another root key than the one configured. */
export class KeyMismatchError extends ConfigError {
  override name = 'KeyMismatchError';
}

/** `name on host`, from a database URL, without its credentials. */
function describeDatabase(url: string): string {
  const u = new URL(url);
  return `${decodeURIComponent(u.pathname.slice(1))} on ${u.host}`;
}

/**
 * Compares each of `keys` (by variable name) with the fingerprint the database recorded, recording
 * it if none is; throws KeyMismatchError naming every key that differs. A key may be given as its
 * ring (the newest first, then the keys it replaced): the recorded one must be one of them, as
 * during a rotation the database holds what the older keys sealed until the rewrap records the newest.
 */
export async function verifyKeyFingerprints(
  repository: Pick<KeyFingerprintRepository, 'claim'>,
  keys: Record<string, Buffer | readonly Buffer[]>,
  databaseUrl: string,
): Promise<void> {
  const problems: string[] = [];
  for (const [name, keyOrRing] of Object.entries(keys)) {
    const ring = Buffer.isBuffer(keyOrRing) ? [keyOrRing] : keyOrRing;
    const given = keyFingerprint(ring[0]!);
    const recorded = await repository.claim(name, given);
    if (ring.some((key) => constantTimeEqual(recorded, keyFingerprint(key)))) continue;
    problems.push(
      `${name}: the database ${describeDatabase(databaseUrl)} was set up with another ${name} (fingerprint ${recorded.slice(0, 12)}…) than the one given ` +
        `(${given.slice(0, 12)}…), and what it holds cannot be read with this one. Set ${name} (or ${name}_FILE) to the key it was set up with, ` +
        `from your key backup; to start afresh instead, point DATABASE_URL at a new, empty database.`,
    );
  }
  if (problems.length > 0) throw new KeyMismatchError(`refusing to start:\n  ${problems.join('\n  ')}`);
}

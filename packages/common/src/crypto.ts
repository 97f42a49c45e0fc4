import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** HKDF-SHA256: one root key, many purpose-bound keys (RFC 5869). */
export function deriveKey(root: Buffer, info: string, salt: Buffer | string = ''): Buffer {
  return Buffer.from(hkdfSync('sha256', root, salt, info, 32));
}

/**
 * AES-256-GCM with a random 96-bit IV. Output: version byte | iv | tag | ciphertext.
 * `aad` binds the ciphertext to its record, so a row's ciphertext pasted into another row fails.
 */
export function seal(key: Buffer, plaintext: Buffer | string, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

export function open(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
    throw new Error('unsupported ciphertext envelope');
  }
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
}

export function sha256(input: string | Buffer): Buffer {
  return createHash('sha256').update(input).digest();
}

/** Compares two strings in time independent of where they differ (lengths are hashed first). */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

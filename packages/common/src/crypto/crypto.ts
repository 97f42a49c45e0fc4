import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes as systemRandomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const HASH_BYTES = 32;
const ONE = Buffer.from([1]);

/**
 * HKDF-SHA256 (RFC 5869): one root key, many purpose-bound keys. Written as its HMACs rather than
 * with `hkdfSync`, which builds a KeyObject per call and costs about twice as much; the secrets
 * service derives two or three keys per share and per read. An empty salt is HMAC'd as the
 * RFC's HashLen zeros (HMAC pads short keys with zeros), so the results are identical.
 */
export function deriveKey(root: Buffer, info: string | Buffer, salt: Buffer | string = '', length = HASH_BYTES): Buffer {
  if (length < 1 || length > 255 * HASH_BYTES) throw new RangeError('HKDF-SHA256 output must be 1 to 8160 bytes');
  const prk = createHmac('sha256', salt).update(root).digest();
  // T(1) = HMAC(PRK, info | 0x01) is the whole answer for a 32-byte key, the usual case.
  if (length === HASH_BYTES) return createHmac('sha256', prk).update(info).update(ONE).digest();
  const blocks: Buffer[] = [];
  let previous = Buffer.alloc(0);
  for (let i = 1; blocks.length * HASH_BYTES < length; i++) {
    previous = createHmac('sha256', prk)
      .update(previous)
      .update(info)
      .update(Buffer.from([i]))
      .digest();
    blocks.push(previous);
  }
  return Buffer.concat(blocks).subarray(0, length);
}

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let drawn = POOL_BYTES;

/**
 * `size` bytes from the CSPRNG (OpenSSL's, as `crypto.randomBytes`), for keys, IVs and tokens.
 * Small draws come from a 4 KiB buffer refilled by one `randomFillSync`: each call of Node's own
 * sets up a crypto job, which cost ~7 µs, five times per share (measured: docs/performance.md). Bytes
 * handed out are wiped from the buffer, so it never holds a copy of a key or IV in use; large
 * draws go straight to Node. `crypto.randomUUID` pools the same way.
 */
export function randomBytes(size: number): Buffer {
  if (size > 256) return systemRandomBytes(size);
  if (drawn + size > POOL_BYTES) {
    randomFillSync(pool);
    drawn = 0;
  }
  const out = Buffer.allocUnsafe(size);
  pool.copy(out, 0, drawn, drawn + size);
  pool.fill(0, drawn, drawn + size);
  drawn += size;
  return out;
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

/** One-shot (`crypto.hash`): no Hash object, whose native half the garbage collector handles one by one. */
export function sha256(input: string | Buffer): Buffer {
  return hash('sha256', input, 'buffer');
}

/** Compares two strings in time independent of where they differ (lengths are hashed first). */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

import { createHmac } from 'node:crypto';
import { ConfigError } from '../config/config.js';
import { constantTimeEqual, deriveKey, open, seal } from './crypto.js';

/**
 * A root key and the older ones that must still open what they sealed (a rotation in progress):
 * MASTER_KEY with MASTER_KEYS_PREVIOUS, MAIL_SEALING_KEY with MAIL_SEALING_KEYS_PREVIOUS.
 *
 * - New ciphertexts are sealed under the newest key and tagged with its id (below), so a read
 *   goes straight to the key that sealed it and a rewrap can tell, without opening anything,
 *   what is not yet under the newest key.
 * - Untagged ciphertexts (sealed before key rings existed) are tried under each key, newest first.
 * - MACs (cookies, CSRF tokens, token envelopes) are made under the newest key and accepted under any.
 *
 * A derived ring (`derive`) holds one purpose-bound key per root key, under the root key's id.
 */

/** Bytes of a key id: enough to tell a handful of keys apart, too few to say anything of the key. */
export const KEY_ID_BYTES = 4;

/** First byte of a tagged ciphertext: then the key id, then the untagged envelope (crypto.ts `seal`). */
const TAGGED = 2;

/** HKDF `info` of a root key's id. */
const KEY_ID_LABEL = 'hush key id v1';

export interface RingKey {
  /** KEY_ID_BYTES, from the root key (one-way: the id says nothing of the key). */
  readonly id: Buffer;
  readonly key: Buffer;
}

/** The id of a root key, as its ciphertexts are tagged with. */
export function keyId(root: Buffer): Buffer {
  return deriveKey(root, KEY_ID_LABEL).subarray(0, KEY_ID_BYTES);
}

export class KeyRing {
  /** The newest key first; every other key after it, newest first. */
  readonly keys: readonly RingKey[];

  private constructor(keys: readonly RingKey[]) {
    this.keys = keys;
  }

  /**
   * The ring of root keys `newest` and `previous` (newest first). A key given twice is kept once;
   * two different keys with the same id (a 1 in 4 billion chance) refuse, as reads could not tell them apart.
   */
  static of(newest: Buffer, previous: readonly Buffer[] = [], name = 'the key'): KeyRing {
    const keys: RingKey[] = [];
    for (const key of [newest, ...previous]) {
      const id = keyId(key);
      const same = keys.find((k) => k.id.equals(id));
      if (same && same.key.equals(key)) continue;
      if (same) throw new ConfigError(`invalid configuration:\n  ${name}: two keys of the ring have the same id; generate another new key`);
      keys.push({ id, key });
    }
    return new KeyRing(keys);
  }

  get newest(): RingKey {
    return this.keys[0]!;
  }

  /** Every key's purpose-bound key (HKDF, crypto.ts `deriveKey`), under the same ids. */
  derive(info: string | Buffer, salt: Buffer | string = ''): KeyRing {
    return new KeyRing(this.keys.map(({ id, key }) => ({ id, key: deriveKey(key, info, salt) })));
  }

  /** The key with this id, if it is in the ring. */
  byId(id: Buffer): RingKey | undefined {
    return this.keys.find((k) => k.id.equals(id));
  }

  /** AES-256-GCM under the newest key, tagged with its id; `aad` binds it to its record, as `seal`. */
  seal(plaintext: Buffer | string, aad: string): Buffer {
    const { id, key } = this.newest;
    return Buffer.concat([Buffer.from([TAGGED]), id, seal(key, plaintext, aad)]);
  }

  /**
   * Opens what `seal` sealed under any key of the ring, or an untagged ciphertext under whichever
   * key sealed it. Throws, as `open` does, when no key of the ring opens it.
   */
  open(sealed: Buffer, aad: string): Buffer {
    const tagged = sealedKeyId(sealed);
    if (tagged) {
      const key = this.byId(tagged);
      if (!key) throw new Error('ciphertext sealed under a key that is not in the ring');
      return open(key.key, sealed.subarray(1 + KEY_ID_BYTES), aad);
    }
    let failure: unknown;
    for (const { key } of this.keys) {
      try {
        return open(key, sealed, aad);
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }

  /** Whether `sealed` is tagged with the newest key's id: a rewrap leaves it as it is. */
  sealedUnderNewest(sealed: Buffer): boolean {
    const id = sealedKeyId(sealed);
    return id !== undefined && id.equals(this.newest.id);
  }

  /** `sealed` opened and sealed again under the newest key (with the same `aad`). */
  rewrap(sealed: Buffer, aad: string): Buffer {
    return this.seal(this.open(sealed, aad), aad);
  }

  /** HMAC-SHA256 of `input` under the newest key. */
  mac(input: string | Buffer): Buffer {
    return createHmac('sha256', this.newest.key).update(input).digest();
  }

  /** Whether `tag` is the HMAC-SHA256 of `input` under any key of the ring (each compared in constant time). */
  verifyMac(input: string | Buffer, tag: Buffer | string): boolean {
    let ok = false;
    for (const { key } of this.keys) ok = constantTimeEqual(createHmac('sha256', key).update(input).digest(), tag) || ok;
    return ok;
  }
}

/** The key id a ciphertext is tagged with, or undefined for an untagged one. */
export function sealedKeyId(sealed: Buffer): Buffer | undefined {
  return sealed.length > 1 + KEY_ID_BYTES && sealed[0] === TAGGED ? sealed.subarray(1, 1 + KEY_ID_BYTES) : undefined;
}

/** The SQL condition "this bytea column is not tagged with `id`" (for a rewrap's scan): untagged, or another id. */
export function notTaggedWithSql(column: string): string {
  return `(get_byte(${column}, 0) <> ${TAGGED} OR substring(${column} from 2 for ${KEY_ID_BYTES}) <> ?)`;
}

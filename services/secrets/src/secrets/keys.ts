import { randomBytes, sha256 } from '@hush/common';

/**
 * Secret and metadata keys: 160 random bits written as 31 lowercase base36 characters, the
 * shape Onetime Secret's clients expect (36^31 > 2^160, so every value fits). They are
 * capabilities: the database keeps only their SHA-256 hashes.
 */
export const KEY_LENGTH = 31;
export const KEY_PATTERN = /^[0-9a-z]{31}$/;

export function newKey(): string {
  return BigInt(`0x${randomBytes(20).toString('hex')}`)
    .toString(36)
    .padStart(KEY_LENGTH, '0');
}

export const isKey = (value: string): boolean => KEY_PATTERN.test(value);

export const hashKey = (key: string): Buffer => sha256(key);

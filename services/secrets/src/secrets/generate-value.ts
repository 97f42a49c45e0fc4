import { randomInt } from 'node:crypto';

/**
 * Generated secrets (the API's "generate"; the length and alphabet are ours): 12 characters by
 * default, up to 128, drawn uniformly (crypto.randomInt) from letters, digits and a few symbols
 * without look-alikes (no 0 O o, 1 l I i) and without quotes, backslashes or spaces.
 * 12 characters of this 62-symbol set carry about 71 bits.
 */
export const GENERATE_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789*$!?%+=';
export const GENERATE_DEFAULT_LENGTH = 12;
export const GENERATE_MIN_LENGTH = 8;
export const GENERATE_MAX_LENGTH = 128;

export function generateValue(length = GENERATE_DEFAULT_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)];
  return out;
}

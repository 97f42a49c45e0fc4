import { randomBytes, sha256 } from '@hush/common';
import { HOURS, hashKey, hourOf, isKey, newKey } from './keys.js';

/** A key as they were made before they named their hour: 160 random bits in base36. */
const keyMadeBefore = () =>
  BigInt(`0x${randomBytes(20).toString('hex')}`)
    .toString(36)
    .padStart(31, '0');

describe('keys', () => {
  it('are 31 lowercase base36 characters, unique, 144 random bits after their hour', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => newKey()));
    expect(keys.size).toBe(2000);
    for (const k of keys) expect(isKey(k)).toBe(true);
    expect(36 ** 28).toBeGreaterThan(2 ** 144);
    // A list shows 6 characters of a metadata key: the 25 after them stay unknown, over 128 bits.
    expect(25 * Math.log2(36)).toBeGreaterThan(128);
  });

  it('start with their hour: u00 to zzz, one prefix per hour for 324 days, then again', () => {
    const hour = 3_600_000;
    const at = Date.UTC(2027, 0, 1, 10, 30);
    expect(newKey(at).slice(0, 3)).toBe(newKey(at + 20 * 60_000).slice(0, 3));
    expect(newKey(at).slice(0, 3)).not.toBe(newKey(at + hour).slice(0, 3));
    expect(newKey(0).slice(0, 3)).toBe('u00');
    expect(newKey((HOURS - 1) * hour).slice(0, 3)).toBe('zzz');
    expect(newKey(HOURS * hour).slice(0, 3)).toBe('u00');
    expect(hourOf(at + HOURS * hour)).toBe(hourOf(at));
  });

  it('are stored as their hour (2 bytes) and SHA-256, so the hashes of one hour sort together', () => {
    const at = Date.UTC(2027, 0, 1, 10, 30);
    const a = newKey(at);
    const b = newKey(at + 29 * 60_000);
    const later = newKey(at + 3_600_000);
    expect(hashKey(a)).toHaveLength(34);
    expect(hashKey(a).readUInt16BE(0)).toBe(hourOf(at));
    expect(hashKey(a).subarray(2)).toEqual(sha256(a));
    expect(hashKey(a).subarray(0, 2)).toEqual(hashKey(b).subarray(0, 2));
    expect(Buffer.compare(hashKey(a), hashKey(later))).toBe(-1);
    expect(Buffer.compare(hashKey(b), hashKey(later))).toBe(-1);
  });

  it('made before they named their hour start with 0 to t and keep their plain SHA-256', () => {
    // The largest of them, 2^160 - 1, in base36: below every key with an hour.
    expect((2n ** 160n - 1n).toString(36)).toMatch(/^t[0-9a-z]{30}$/);
    for (let i = 0; i < 200; i++) {
      const old = keyMadeBefore();
      expect(old).toMatch(/^[0-9a-t]/);
      expect(hashKey(old)).toEqual(sha256(old));
    }
  });

  it('hash anything else to its SHA-256 (never throw on a malformed path)', () => {
    for (const text of ['', 'u', 'u!x', 'zz', 'U00abc', 'a']) expect(hashKey(text)).toEqual(sha256(text));
  });
});

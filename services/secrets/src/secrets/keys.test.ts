import { hashKey, isKey, newKey } from './keys.js';

describe('keys', () => {
  it('are 31 lowercase base36 characters (160 random bits), unique, hashed with SHA-256', () => {
    const keys = new Set(Array.from({ length: 2000 }, newKey));
    expect(keys.size).toBe(2000);
    for (const k of keys) expect(isKey(k)).toBe(true);
    expect(36 ** 31).toBeGreaterThan(2 ** 160);
    expect(hashKey('a')).toHaveLength(32);
  });
});

import { GENERATE_ALPHABET, generateValue } from '../../src/secrets/generate-value.js';
import { hashKey, isKey, newKey } from '../../src/secrets/keys.js';
import { characterCount } from '../../src/secrets/params.js';
import { obfuscateEmail as obfuscateAddress } from '@hush/queue';
import { isValidAddress } from '../../src/secrets/recipient.js';
import { logPath } from '../../src/http/request-log.js';
import { planOf } from '../../src/accounts/plans.js';

describe('keys', () => {
  it('are 31 lowercase base36 characters (160 random bits), unique, hashed with SHA-256', () => {
    const keys = new Set(Array.from({ length: 2000 }, newKey));
    expect(keys.size).toBe(2000);
    for (const k of keys) expect(isKey(k)).toBe(true);
    expect(36 ** 31).toBeGreaterThan(2 ** 160);
    expect(hashKey('a')).toHaveLength(32);
  });
});

describe('generated values', () => {
  it('use the alphabet without look-alikes, uniformly enough', () => {
    expect(GENERATE_ALPHABET).not.toMatch(/[0Oo1lIi\s'"\\`]/);
    const counts = new Map<string, number>();
    for (const c of Array.from({ length: 200 }, () => generateValue(50)).join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(GENERATE_ALPHABET.length);
    expect(generateValue()).toHaveLength(12);
  });
});

describe('recipient addresses', () => {
  it.each([
    ['foo@example.com', 'fo*****@e*****.com'],
    ['tryouts@onetimesecret.com', 'tr*****@o*****.com'],
    ['r@onetimesecret.com', 'r*****@o*****.com'],
    ['first.last+tag@mail.example.co.uk', 'fi*****@m*****.uk'],
  ])('%s is shown as %s (Onetime Secret style)', (address, shown) => {
    expect(isValidAddress(address)).toBe(true);
    expect(obfuscateAddress(address)).toBe(shown);
  });

  it.each(['plain', '@example.com', 'a@', 'a@b', 'a b@example.com', 'a@example..com', '.a@example.com', `${'a'.repeat(65)}@example.com`, 'a@-example.com'])(
    'rejects %s',
    (address) => {
      expect(isValidAddress(address)).toBe(false);
    },
  );
});

describe('character count (the unit of plan limits)', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('€€')).toBe(2);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('\ud800x')).toBe(2); // a lone surrogate is one character
  });
});

describe('log paths', () => {
  it('never carry keys', () => {
    expect(logPath('/api/v1/secret/abc123')).toBe('/api/v1/secret/:key');
    expect(logPath('/api/v1/private/abc123/burn')).toBe('/api/v1/private/:key/burn');
    expect(logPath('/api/v1/private/recent')).toBe('/api/v1/private/recent');
    expect(logPath('/api/v1/metadata/recentish')).toBe('/api/v1/metadata/:key');
  });
});

describe('plans', () => {
  it('fall back to the default for unknown names', () => {
    expect(planOf('pro', 'basic').maxSecretLength).toBe(10000);
    expect(planOf('gone', 'standard').name).toBe('standard');
    expect(planOf(undefined, 'basic').maxSecretLength).toBe(1000);
  });
});

import { randomBytes } from 'node:crypto';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes.js';

describe('recovery codes', () => {
  it('ten distinct codes of two groups of five', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(looksLikeRecoveryCode(code)).toBe(true);
    }
  });

  it('typing ignores case, spaces and dashes; the hash depends on the key', () => {
    const [code] = newRecoveryCodes(1) as [string];
    const key = randomBytes(32);
    expect(normalizeRecoveryCode(` ${code.toUpperCase().replace('-', ' ')} `)).toBe(code.replace('-', ''));
    expect(hashRecoveryCode(key, code.toUpperCase())).toBe(hashRecoveryCode(key, code));
    expect(hashRecoveryCode(randomBytes(32), code)).not.toBe(hashRecoveryCode(key, code));
    expect(hashRecoveryCode(key, code)).not.toContain(code.replace('-', ''));
  });

  it('a six-digit TOTP code does not look like a recovery code', () => {
    expect(looksLikeRecoveryCode('123456')).toBe(false);
    expect(looksLikeRecoveryCode('abcde-fghij0')).toBe(false);
  });
});

import { createHmac } from 'node:crypto';
import { randomBytes } from '@hush/common';

/**
 * Recovery codes: ten per TOTP enrolment, shown once, stored as HMAC-SHA256 under a key derived
 * from MASTER_KEY (a stolen table alone does not let anyone test guesses offline), each accepted
 * once. A code is 10 characters of 31 that cannot be misread (no i, l, o, 0, 1: 49 bits), shown as
 * two groups of five; typing is forgiving: case, spaces and dashes do not matter.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    // Rejection sampling: a byte beyond the last whole multiple of the alphabet is drawn again.
    const limit = 256 - (256 % ALPHABET.length);
    let code = '';
    while (code.length < LENGTH) {
      for (const byte of randomBytes(16)) {
        if (byte < limit && code.length < LENGTH) code += ALPHABET[byte % ALPHABET.length];
      }
    }
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** The code as typed, reduced to what was issued: lower case, without spaces and dashes. */
export const normalizeRecoveryCode = (typed: string): string => typed.toLowerCase().replace(/[\s-]/g, '');

/** Whether a typed value could be a recovery code (else it is not worth a database round trip). */
export const looksLikeRecoveryCode = (typed: string): boolean => new RegExp(`^[${ALPHABET}]{${LENGTH}}$`).test(normalizeRecoveryCode(typed));

export function hashRecoveryCode(key: Buffer, typed: string): string {
  return createHmac('sha256', key).update(normalizeRecoveryCode(typed)).digest('base64url');
}

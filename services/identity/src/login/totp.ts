import { createRequire } from 'node:module';
import type * as OTPAuth from 'otpauth';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit
 * secret (RFC 4226 §4 recommends 160 bits). Rules:
 * - a code is accepted in its own step and one step either side (RFC 6238 §5.2 clock drift);
 * - a code is accepted only for a step later than the last one accepted for the credential, so a
 *   code seen over a shoulder or replayed cannot be used again within its window. The caller
 *   stores the accepted step atomically (credentials.repository.ts).
 */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
const WINDOW = 1;

/**
 * otpauth (~0.7 MB of heap) is loaded by the first TOTP enrolment or code check, not at start.
 * Required rather than imported: these helpers are synchronous, as their callers are.
 */
let library: typeof OTPAuth | undefined;
const otpauth = () => (library ??= createRequire(import.meta.url)('otpauth') as typeof OTPAuth);

export const newTotpSecret = (): string => new (otpauth().Secret)({ size: 20 }).base32;

const totpOf = (secret: string, label = '', issuer = '') => {
  const { Secret, TOTP } = otpauth();
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD, secret: Secret.fromBase32(secret) });
};

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return totpOf(secret, account, issuer).toString();
}

/** The secret grouped by four for typing it in by hand. */
export const groupedSecret = (secret: string): string => secret.replace(/(.{4})/g, '$1 ').trim();

/** The code as typed: digits only (spaces and dashes some apps show are dropped). */
export const normalizeCode = (typed: string): string => typed.replace(/[\s-]/g, '');

/**
 * The time step `code` belongs to when it is valid at `now` (epoch ms) and later than
 * `lastStep`; undefined otherwise.
 */
export function acceptedStep(secret: string, typed: string, now: number, lastStep: number | null): number | undefined {
  const code = normalizeCode(typed);
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return undefined;
  const step = otpauth().TOTP.counter({ period: TOTP_PERIOD, timestamp: now }) + delta;
  return lastStep === null || step > lastStep ? step : undefined;
}

/** The code of `secret` at `now` (tests and the enrolment page's own checks). */
export function codeAt(secret: string, now: number): string {
  return totpOf(secret).generate({ timestamp: now });
}

import {
  InvalidLengthError,
  InvalidParameterError,
  InvalidRecipientError,
  InvalidTtlError,
  SecretRequiredError,
} from '../errors.js';
import { single, type Params } from '../http/params.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from './generate-value.js';
import { isValidAddress } from './recipient.js';

/** Parsing of the share/generate/reveal parameters; every rule here is a 400 before anything is written. */

export const PASSPHRASE_MAX_LENGTH = 1024;

/** Out of range or not a whole number is an error naming the bounds (never silently clamped). */
export function parseTtl(params: Params, bounds: { min: number; max: number; fallback: number }): number {
  const raw = single(params, 'ttl')?.trim();
  if (raw === undefined || raw === '') return bounds.fallback;
  if (!/^\d{1,10}$/.test(raw)) throw new InvalidTtlError(bounds.min, bounds.max);
  const ttl = Number(raw);
  if (ttl < bounds.min || ttl > bounds.max) throw new InvalidTtlError(bounds.min, bounds.max);
  return ttl;
}

/** An empty passphrase means none (HTML forms send empty fields). */
export function parsePassphrase(params: Params): string | undefined {
  const passphrase = single(params, 'passphrase');
  if (passphrase === undefined || passphrase === '') return undefined;
  if (passphrase.length > PASSPHRASE_MAX_LENGTH) throw new InvalidParameterError(`passphrase must be at most ${PASSPHRASE_MAX_LENGTH} characters`);
  return passphrase;
}

/** One address; `recipient[]` (Onetime Secret's Ruby client) is accepted with a single element. */
export function parseRecipient(params: Params): string | undefined {
  let raw: string | undefined;
  try {
    raw = single(params, 'recipient', 'recipient[]')?.trim();
  } catch {
    throw new InvalidRecipientError('only one recipient address is supported');
  }
  if (raw === undefined || raw === '') return undefined;
  if (!isValidAddress(raw)) throw new InvalidRecipientError('recipient is not a valid e-mail address');
  return raw;
}

export function parseSecretValue(params: Params): string {
  const value = single(params, 'secret');
  if (value === undefined || value === '') throw new SecretRequiredError();
  return value;
}

export function parseLength(params: Params): number {
  const raw = single(params, 'length')?.trim();
  if (raw === undefined || raw === '') return GENERATE_DEFAULT_LENGTH;
  const length = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(length >= GENERATE_MIN_LENGTH && length <= GENERATE_MAX_LENGTH)) throw new InvalidLengthError(GENERATE_MIN_LENGTH, GENERATE_MAX_LENGTH);
  return length;
}

/** Length in characters (Unicode code points), the unit of the plans' limits. */
export function characterCount(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

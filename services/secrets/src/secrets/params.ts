import { z } from 'zod';
import { InvalidLengthError, InvalidParameterError, InvalidRecipientError, InvalidTtlError, SecretRequiredError } from '../errors.js';
import { blankable, paramsParser, text, wholeNumber, type FieldErrors, type Params, type ParamsParser } from '../http/params.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from './generate-value.js';
import { isValidAddress } from './recipient.js';

/**
 * The inputs of share, generate, reveal and recent: one schema each, parsed once per request
 * from the merged parameters; every rule here is a 400 before anything is written. The schemas
 * also describe the request in the OpenAPI document (http/openapi.ts).
 */

export const PASSPHRASE_MAX_LENGTH = 1024;
export const RECENT_DEFAULT_LIMIT = 20;
export const RECENT_MAX_LIMIT = 100;

export interface TtlBounds {
  min: number;
  max: number;
  fallback: number;
}

/** Out of range or not a whole number is an error naming the bounds (never silently clamped). */
const ttl = (bounds: TtlBounds) =>
  wholeNumber(10, z.int().min(bounds.min).max(bounds.max).default(bounds.fallback).describe('Lifetime of the secret in seconds; out of range is a 400.'));

/** An empty passphrase means none. */
const passphrase = blankable(
  z
    .string()
    .max(PASSPHRASE_MAX_LENGTH, { error: `passphrase must be at most ${PASSPHRASE_MAX_LENGTH} characters` })
    .optional()
    .describe('Needed to read the secret; kept only as a bcrypt hash.'),
);

const recipient = blankable(
  z
    .string()
    .refine(isValidAddress, { error: 'recipient is not a valid e-mail address' })
    .optional()
    .meta({ format: 'email', description: 'One address; gets the link, never the secret.' }),
  { trim: true },
);

/** `recipient[]` (Onetime Secret's Ruby client) is `recipient` with a single element. */
const withRecipientAlias = (params: unknown): unknown => {
  const p = params as Params;
  const alias = p['recipient[]'];
  return alias !== undefined && (p['recipient'] === undefined || p['recipient'] === null) ? { ...p, recipient: alias } : p;
};

const optionErrors: Record<string, FieldErrors> = {
  recipient: {
    invalid: (issue) => new InvalidRecipientError(issue.message),
    multiple: () => new InvalidRecipientError('only one recipient address is supported'),
  },
};

/** Key order is check order: the first failing field is the error the client sees. */
function shareSchema(bounds: TtlBounds) {
  return z.preprocess(withRecipientAlias, z.object({ secret: text(z.string().min(1)), ttl: ttl(bounds), passphrase, recipient }));
}

function generateSchema(bounds: TtlBounds) {
  const length = wholeNumber(4, z.int().min(GENERATE_MIN_LENGTH).max(GENERATE_MAX_LENGTH).default(GENERATE_DEFAULT_LENGTH));
  return z.preprocess(withRecipientAlias, z.object({ length, ttl: ttl(bounds), passphrase, recipient }));
}

const revealSchema = z.object({ passphrase });

const recentSchema = z.object({
  limit: wholeNumber(3, z.int().min(1).max(RECENT_MAX_LIMIT).default(RECENT_DEFAULT_LIMIT)),
  before: blankable(z.string().optional().describe('Cursor of the next page (from X-Next-Cursor or the Link header).')),
});

export type ShareInput = z.output<ReturnType<typeof shareSchema>>;
export type GenerateInput = z.output<ReturnType<typeof generateSchema>>;
export type RevealInput = z.output<typeof revealSchema>;
export type RecentInput = z.output<typeof recentSchema>;

export interface SecretsInputs {
  share: ParamsParser<ReturnType<typeof shareSchema>>;
  generate: ParamsParser<ReturnType<typeof generateSchema>>;
  reveal: ParamsParser<typeof revealSchema>;
  recent: ParamsParser<typeof recentSchema>;
}

/** Reveal and recent do not depend on configuration: built once, at module load. */
export const revealInput = paramsParser(revealSchema);
export const recentInput = paramsParser(recentSchema, {
  limit: { invalid: () => new InvalidParameterError(`limit must be a whole number from 1 to ${RECENT_MAX_LIMIT}`) },
});

/** Share and generate carry the configured TTL bounds: build them once per app, never per request. */
export function secretsInputs(bounds: TtlBounds): SecretsInputs {
  const ttlErrors: FieldErrors = { invalid: () => new InvalidTtlError(bounds.min, bounds.max) };
  return {
    share: paramsParser(shareSchema(bounds), { ...optionErrors, ttl: ttlErrors, secret: { invalid: () => new SecretRequiredError() } }),
    generate: paramsParser(generateSchema(bounds), {
      ...optionErrors,
      ttl: ttlErrors,
      length: { invalid: () => new InvalidLengthError(GENERATE_MIN_LENGTH, GENERATE_MAX_LENGTH) },
    }),
    reveal: revealInput,
    recent: recentInput,
  };
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

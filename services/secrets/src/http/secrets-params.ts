import { z } from 'zod';
import { HANDOVER_KINDS, mailLocale, NOTIFY_EVENTS } from '@hush/queue';
import { InvalidLengthError, InvalidParameterError, InvalidRecipientError, InvalidShareDomainError, InvalidTtlError, SecretRequiredError } from '../errors.js';
import { blankable, paramsParser, text, wholeNumber, type FieldErrors, type Params, type ParamsParser } from './params.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from '../secrets/generate-value.js';
import { isValidAddress } from '../secrets/recipient.js';

/**
 * The inputs of share, generate, reveal and recent: one schema each, parsed once per request
 * from the merged parameters; every rule here is a 400 before anything is written. The schemas
 * also describe the request in the OpenAPI document (http/openapi.ts).
 */

export const PASSPHRASE_MAX_LENGTH = 1024;
/**
 * Passphrase length in the Onetime Secret dialect when creating a secret: Onetime Secret's own
 * (current) bounds, 4 to 128 characters. The spec dialect takes 1 to PASSPHRASE_MAX_LENGTH: the
 * attempt limit (PASSPHRASE_MAX_ATTEMPTS), not the length, is what stops guessing.
 */
export const OTS_PASSPHRASE_MIN_LENGTH = 4;
export const OTS_PASSPHRASE_MAX_LENGTH = 128;
/** Big enough for clients that ignore `Link` (Onetime Secret returns the whole list). */
export const RECENT_DEFAULT_LIMIT = 100;
export const RECENT_MAX_LIMIT = 500;

export interface TtlBounds {
  min: number;
  max: number;
  fallback: number;
}

/** 0 or empty means the default (Onetime Secret's clients send 0 for it); out of range or not a whole number is an error naming the bounds. */
const ttl = (bounds: TtlBounds) =>
  wholeNumber(
    10,
    z.preprocess(
      (v) => (v === 0 ? undefined : v),
      z.int().min(bounds.min).max(bounds.max).default(bounds.fallback).describe('Lifetime of the secret in seconds; 0 or absent: the default; out of range is a 400.'),
    ),
  );

/**
 * Onetime Secret's reading of `ttl`: the leading whole number of the text (as Ruby's to_i), the
 * default when there is none or it is not positive, and clamped to the bounds; never an error.
 */
const lenientTtl = (bounds: TtlBounds) =>
  z.preprocess(
    (value: unknown) => {
      const raw: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
      const n = typeof raw === 'number' ? Math.trunc(raw) : typeof raw === 'string' ? Number.parseInt(raw.trim(), 10) : NaN;
      if (!Number.isFinite(n) || n <= 0) return undefined;
      return Math.min(bounds.max, Math.max(bounds.min, n));
    },
    z.int().default(bounds.fallback).describe(`Lifetime of the secret in seconds; 0, absent or not a number: the default; clamped to ${bounds.min}..${bounds.max}.`),
  );

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Echoed in the answers and the metadata; never used to build a link (links use BASE_URL). */
const shareDomain = blankable(
  z
    .string()
    .regex(HOST_NAME)
    .transform((v) => v.toLowerCase())
    .optional()
    .describe("A host name, echoed back as share_domain (links always use this service's own origin)."),
  { trim: true },
);

/** The Onetime Secret dialect: 4 to 128 characters when creating, in its own words. */
const otsPassphrase = blankable(
  z
    .string()
    .min(OTS_PASSPHRASE_MIN_LENGTH, { error: `Passphrase must be at least ${OTS_PASSPHRASE_MIN_LENGTH} characters long` })
    .max(OTS_PASSPHRASE_MAX_LENGTH, { error: `Passphrase must be no more than ${OTS_PASSPHRASE_MAX_LENGTH} characters long` })
    .optional()
    .describe('Needed to read the secret; kept only as a bcrypt hash.'),
);

/**
 * Onetime Secret's recipients: `recipient` and `recipient[]`, one value or several; the first
 * valid address is kept (it alone gets the e-mail) and the others are dropped silently.
 */
const firstValidRecipient = (params: unknown): unknown => {
  const p = params as Params;
  const values = [p['recipient'], p['recipient[]']].flatMap((v): unknown[] => (Array.isArray(v) ? (v as unknown[]) : [v]));
  const first = values.map((v) => (typeof v === 'string' ? v.trim() : '')).find((v) => v !== '' && isValidAddress(v));
  const { 'recipient[]': _alias, ...rest } = p;
  return { ...rest, recipient: first };
};

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

/**
 * `notify`: the events the creator is told about by e-mail, comma-separated (`revealed`,
 * `burned`, `expired`); `notify_email`: where to (default: the account's id when it is an e-mail
 * address). Extensions: Onetime Secret's clients never send them.
 */
const notify = blankable(
  z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((e) => e.trim())
          .filter((e) => e !== ''),
      ),
    ])
    .pipe(z.array(z.enum(NOTIFY_EVENTS, { error: `notify lists events among ${NOTIFY_EVENTS.join(', ')}` })))
    .optional()
    .describe(`Events to be told about by e-mail, comma-separated: ${NOTIFY_EVENTS.join(', ')}. The e-mail never holds the secret or a link.`),
  { trim: true },
);

const notifyEmail = blankable(
  z
    .string()
    .refine(isValidAddress, { error: 'notify_email is not a valid e-mail address' })
    .optional()
    .meta({ format: 'email', description: "Where notify's e-mails go; default: the account's id when it is an e-mail address." }),
  { trim: true },
);

const notifyOptions = { notify, notify_email: notifyEmail };

/** One line of printable text, as a handover label's parts are (they are shown in a subject, a body and a page). */
const labelPart = (description: string) =>
  blankable(
    z
      .string()
      .max(200, { error: 'handover labels are at most 200 characters' })
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/, { error: 'handover labels are one line of printable text' })
      .optional()
      .describe(description),
    { trim: true },
  );

/**
 * A handed-over credential's label (a service client's share, such as identity's handover): what
 * the secret is, for its e-mail and reveal page to name it. Extensions: Onetime Secret's clients
 * never send them, and no answer shows them.
 */
const handoverOptions = {
  handover_kind: blankable(
    z
      .enum(HANDOVER_KINDS, { error: `handover_kind is one of ${HANDOVER_KINDS.join(', ')}` })
      .optional()
      .describe(`A handed-over credential: ${HANDOVER_KINDS.join(', ')}. Needs handover_name; service clients only.`),
    { trim: true },
  ),
  handover_name: labelPart("The handed-over credential's client name or account username, named in the e-mail and on the reveal page."),
  handover_id: labelPart("The handed-over credential's client id, shown beside its name."),
  handover_by: labelPart('Who handed the credential over (an administrator), named in the e-mail and on the reveal page.'),
  // A hint, never a refusal: a malformed tag (or one sent twice) is ignored, as a language Hush does not write is;
  // one the mail job takes (mailLocale) is kept, so the job never fails over it.
  locale: z
    .preprocess((v) => (typeof v === 'string' && v.trim() !== '' && mailLocale.safeParse(v.trim()).success ? v.trim() : undefined), z.string().optional())
    .describe("The recipient's language (BCP 47, e.g. de or en-GB) for the e-mails; absent, malformed or not spoken: English."),
};

/**
 * `recipient_only`: only the recipient may read the secret, after signing in at identity with an
 * account whose verified address it is, or proving the address with a one-time code e-mailed to it.
 * Needs `recipient`. An extension in the Onetime Secret dialect (its clients never send it).
 */
const recipientOnly = blankable(
  z
    .enum(['true', 'false', '1', '0', 'on', 'yes', 'no'], { error: 'recipient_only must be true or false' })
    .transform((v) => v === 'true' || v === '1' || v === 'on' || v === 'yes')
    .optional()
    .meta({ description: 'true: only the recipient can read it: signed in with that verified address, or with a one-time code sent to it. Needs recipient.' }),
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
  return z.preprocess(
    withRecipientAlias,
    z.object({
      secret: text(z.string().min(1)),
      ttl: ttl(bounds),
      passphrase,
      recipient,
      recipient_only: recipientOnly,
      share_domain: shareDomain,
      ...notifyOptions,
      ...handoverOptions,
    }),
  );
}

const generateLength = wholeNumber(4, z.int().min(GENERATE_MIN_LENGTH).max(GENERATE_MAX_LENGTH).default(GENERATE_DEFAULT_LENGTH));

function generateSchema(bounds: TtlBounds) {
  return z.preprocess(
    withRecipientAlias,
    z.object({ length: generateLength, ttl: ttl(bounds), passphrase, recipient, recipient_only: recipientOnly, share_domain: shareDomain, ...notifyOptions }),
  );
}

const otsRecipient = z.string().optional().meta({ format: 'email', description: 'The first valid address of recipient / recipient[]; others are ignored.' });

function otsShareSchema(bounds: TtlBounds) {
  return z.preprocess(
    firstValidRecipient,
    z.object({
      secret: text(z.string().min(1)),
      ttl: lenientTtl(bounds),
      passphrase: otsPassphrase,
      recipient: otsRecipient,
      recipient_only: recipientOnly,
      share_domain: shareDomain,
      ...notifyOptions,
      ...handoverOptions,
    }),
  );
}

function otsGenerateSchema(bounds: TtlBounds) {
  return z.preprocess(
    firstValidRecipient,
    z.object({
      length: generateLength,
      ttl: lenientTtl(bounds),
      passphrase: otsPassphrase,
      recipient: otsRecipient,
      recipient_only: recipientOnly,
      share_domain: shareDomain,
      ...notifyOptions,
    }),
  );
}

const revealSchema = z.object({ passphrase });

/** Whether the person answering a request may (`optional`), must or must not protect the secret with a passphrase. */
export const PASSPHRASE_POLICIES = ['none', 'optional', 'required'] as const;
export type PassphrasePolicy = (typeof PASSPHRASE_POLICIES)[number];
export const REQUEST_LABEL_MAX_LENGTH = 200;

/** A secret request: what it is for, how long its link stays open, and the secret's own terms. */
function createRequestSchema(bounds: TtlBounds) {
  return z.object({
    label: text(z.string().trim().min(1).max(REQUEST_LABEL_MAX_LENGTH).describe('What the secret is for, shown to the person asked (never a secret itself)')),
    ttl: ttl(bounds).describe('Seconds the request link stays open; 0 or absent: the default.'),
    secret_ttl: ttl(bounds).describe('Lifetime in seconds of the secret sent through it; 0 or absent: the default.'),
    passphrase_policy: blankable(z.enum(PASSPHRASE_POLICIES).default('optional').describe('Whether the person answering may, must or must not set a passphrase.')),
    recipient: blankable(
      z
        .string()
        .refine(isValidAddress, { error: 'recipient is not a valid e-mail address' })
        .optional()
        .meta({ format: 'email', description: 'The address of the person asked: it gets the request link by e-mail (stored sealed).' }),
      { trim: true },
    ),
    public_key: blankable(
      z
        .string()
        .regex(PUBLIC_KEY_PATTERN)
        .transform((v) => Buffer.from(v, 'base64url'))
        .refine((b) => b.length === 65 && b[0] === 4)
        .optional()
        .describe(
          "A zero-knowledge request (docs/zero-knowledge.md): the requester's ECDH P-256 public key, an uncompressed point in base64url. The answer is then encrypted by the sender's client and its key wrapped for this key.",
        ),
    ),
  });
}

/** An uncompressed P-256 point (65 bytes) in base64url. */
const PUBLIC_KEY_PATTERN = /^[A-Za-z0-9_-]{87}$/;

const answerRequestSchema = z.object({ secret: text(z.string().min(1)), passphrase });

const recentSchema = z.object({
  limit: wholeNumber(3, z.int().min(1).max(RECENT_MAX_LIMIT).default(RECENT_DEFAULT_LIMIT)),
  before: blankable(z.string().optional().describe('Cursor of the next page (from X-Next-Cursor or the Link header).')),
});

export type ShareInput = z.output<ReturnType<typeof shareSchema>>;
export type GenerateInput = z.output<ReturnType<typeof generateSchema>>;
export type ApiDialectInputs = 'spec' | 'onetimesecret';
export type RevealInput = z.output<typeof revealSchema>;
export type RecentInput = z.output<typeof recentSchema>;
export type CreateRequestInput = z.output<ReturnType<typeof createRequestSchema>>;
export type AnswerRequestInput = z.output<typeof answerRequestSchema>;

export interface SecretsInputs {
  share: ParamsParser<z.ZodType<ShareInput>>;
  generate: ParamsParser<z.ZodType<GenerateInput>>;
  reveal: ParamsParser<typeof revealSchema>;
  recent: ParamsParser<typeof recentSchema>;
  createRequest: ParamsParser<z.ZodType<CreateRequestInput>>;
  answerRequest: ParamsParser<typeof answerRequestSchema>;
}

/** Reveal and recent do not depend on configuration: built once, at module load. */
export const revealInput = paramsParser(revealSchema);
export const answerRequestInput = paramsParser(answerRequestSchema, { secret: { invalid: () => new SecretRequiredError() } });
export const recentInput = paramsParser(recentSchema, {
  limit: { invalid: () => new InvalidParameterError(`limit must be a whole number from 1 to ${RECENT_MAX_LIMIT}`) },
});

/**
 * Share and generate carry the configured TTL bounds: build them once per app, never per request.
 * The dialect decides how forgiving they are: `spec` refuses what it cannot take (400),
 * `onetimesecret` normalises as Onetime Secret does (clamped ttl, first valid recipient).
 */
export function secretsInputs(bounds: TtlBounds, dialect: ApiDialectInputs = 'spec'): SecretsInputs {
  const common = shareOptionErrors(bounds);
  const length = { invalid: () => new InvalidLengthError(GENERATE_MIN_LENGTH, GENERATE_MAX_LENGTH) };
  const secret = { invalid: () => new SecretRequiredError() };
  const ots = dialect === 'onetimesecret';
  return {
    share: paramsParser(ots ? otsShareSchema(bounds) : shareSchema(bounds), { ...common, secret }),
    generate: paramsParser(ots ? otsGenerateSchema(bounds) : generateSchema(bounds), { ...common, length }),
    reveal: revealInput,
    recent: recentInput,
    // The same in both dialects: Onetime Secret has no requests.
    createRequest: createRequestParser(bounds),
    answerRequest: answerRequestInput,
  };
}

/** The errors of the share options (ttl, recipient, share_domain), as share and generate report them. */
function shareOptionErrors(bounds: TtlBounds): Record<string, FieldErrors> {
  return {
    ...optionErrors,
    ttl: { invalid: () => new InvalidTtlError(bounds.min, bounds.max) },
    share_domain: { invalid: () => new InvalidShareDomainError(), multiple: () => new InvalidShareDomainError() },
  };
}

/**
 * The options of a share besides the secret itself (lifetime, recipient, recipient_only,
 * share_domain, notifications) as the spec dialect reads them, with their errors: for the
 * zero-knowledge share (src/zk), which sends its client's envelope instead of a secret.
 */
export function shareOptions(bounds: TtlBounds) {
  return {
    fields: { ttl: ttl(bounds), recipient, recipient_only: recipientOnly, share_domain: shareDomain, ...notifyOptions, ...handoverOptions },
    errors: shareOptionErrors(bounds),
    preprocess: withRecipientAlias,
  };
}

/** Request creation carries the configured TTL bounds (the web form's as the API's). */
export function createRequestParser(bounds: TtlBounds): ParamsParser<z.ZodType<CreateRequestInput>> {
  return paramsParser(createRequestSchema(bounds), {
    ...optionErrors,
    ttl: { invalid: () => new InvalidTtlError(bounds.min, bounds.max) },
    secret_ttl: { invalid: () => new InvalidParameterError(`secret_ttl must be a whole number of seconds from ${bounds.min} to ${bounds.max}`) },
    label: { invalid: () => new InvalidParameterError(`label must be 1 to ${REQUEST_LABEL_MAX_LENGTH} characters`) },
    passphrase_policy: { invalid: () => new InvalidParameterError(`passphrase_policy must be one of ${PASSPHRASE_POLICIES.join(', ')}`) },
    public_key: { invalid: () => new InvalidParameterError('public_key must be an uncompressed P-256 point (65 bytes) in base64url') },
  });
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

import { z } from 'zod';
import { GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from './generate-value.js';
import type { MetadataRecord } from './secrets.repository.js';

/**
 * Response shapes of spec 2.2-2.4, with Onetime Secret v1's types: integers for every time and
 * TTL (Unix seconds), `ttl` the requested value, `recipient` only when one was given. The
 * OpenAPI document is generated from these schemas (http/openapi.ts) and the types below are
 * inferred from them; responses are not parsed at run time (test/openapi.test.ts checks real
 * ones against the document).
 */
const key = z.string().regex(/^[0-9a-z]{31}$/);
export const unixTime = z.int().min(0).describe('Unix time, seconds (UTC)');
const seconds = z.int().min(0);

export const secretResponse = z.strictObject({
  custid: z.string(),
  metadata_key: key,
  secret_key: key,
  ttl: seconds.describe('The requested TTL'),
  metadata_ttl: seconds.describe('Seconds the metadata has left (2 x ttl at creation)'),
  secret_ttl: seconds.describe('Seconds the secret has left'),
  recipient: z
    .string()
    .optional()
    .meta({ description: 'Obfuscated address, present only when one was given', examples: ['fo*****@e*****.com'] }),
  created: unixTime,
  updated: unixTime,
  passphrase_required: z.boolean(),
});

/** generate's answer: the secret object with the value, shown this once. */
export const generatedSecretResponse = secretResponse.extend({ value: z.string().min(GENERATE_MIN_LENGTH).max(GENERATE_MAX_LENGTH) });

export const revealResponse = z.strictObject({ secret_key: key, value: z.string() });

export const METADATA_STATES = ['new', 'viewed', 'received', 'burned', 'expired'] as const;

export const metadataResponse = z.strictObject({
  custid: z.string(),
  metadata_key: key.nullable(),
  secret_key: key.nullable().describe('The secret key while unread; null once read, burned or expired'),
  ttl: seconds,
  metadata_ttl: seconds,
  secret_ttl: seconds.describe('0 once the secret is gone'),
  recipient: z.string().optional(),
  created: unixTime,
  updated: unixTime,
  received: unixTime.describe('When the secret was read; 0 until then'),
  passphrase_required: z.boolean(),
  state: z.enum(METADATA_STATES),
  delivery_status: z.enum(['queued', 'sent', 'failed']).optional().describe('With a recipient: whether the e-mail with the link left'),
  delivery_updated: unixTime.optional().describe('When delivery_status last changed'),
  delivery_reason: z.string().optional().describe('Why delivery failed (never the address)'),
});

export const burnResponse = metadataResponse.extend({ status: z.literal('burned'), state: z.literal('burned'), secret_key: z.null() });

/** `recent` never hands out capabilities: both keys are null, the short key tells items apart. */
export const recentItem = metadataResponse.extend({ metadata_key: z.null(), secret_key: z.null(), metadata_shortkey: z.string().regex(/^[0-9a-z]{6}$/) });

export type SecretResponse = z.output<typeof secretResponse> & Partial<Pick<z.output<typeof generatedSecretResponse>, 'value'>>;
export type RevealResponse = z.output<typeof revealResponse>;
export type MetadataState = (typeof METADATA_STATES)[number];
export type MetadataResponse = z.output<typeof metadataResponse>;
/** As the schema, with the key fields typed as the presenter builds them. */
export type BurnResponse = MetadataResponse & { status: 'burned' };
export type RecentItem = MetadataResponse & { metadata_shortkey: string };

export const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const remaining = (until: Date, now: number, cap: number): number => Math.max(0, Math.min(cap, Math.ceil((until.getTime() - now) / 1000)));

/** `expired` is computed, not stored: an unread secret past its TTL is expired whether or not the sweeper ran. */
export function stateOf(m: MetadataRecord, now = Date.now()): MetadataState {
  if (m.state === 'received' || m.state === 'burned') return m.state;
  return m.secretExpiresAt.getTime() <= now ? 'expired' : m.state;
}

export function presentCreated(input: {
  custid: string;
  metadataKey: string;
  secretKey: string;
  ttl: number;
  recipient: string | null;
  createdAt: Date;
  passphraseRequired: boolean;
  value?: string;
}): SecretResponse {
  const created = unix(input.createdAt);
  return {
    custid: input.custid,
    metadata_key: input.metadataKey,
    secret_key: input.secretKey,
    ttl: input.ttl,
    metadata_ttl: 2 * input.ttl,
    secret_ttl: input.ttl,
    ...(input.recipient !== null ? { recipient: input.recipient } : {}),
    created,
    updated: created,
    passphrase_required: input.passphraseRequired,
    ...(input.value !== undefined ? { value: input.value } : {}),
  };
}

/**
 * `secretKey` is the unsealed key while the secret is unread (null otherwise, and always null in
 * `recent`); `metadataKey` is null in `recent`, where only its hash is known.
 */
export function presentMetadata(m: MetadataRecord, keys: { metadataKey: string | null; secretKey: string | null }, now = Date.now()): MetadataResponse {
  const state = stateOf(m, now);
  const live = state === 'new' || state === 'viewed';
  return {
    custid: m.custid,
    metadata_key: keys.metadataKey,
    secret_key: live ? keys.secretKey : null,
    ttl: m.ttl,
    metadata_ttl: remaining(m.expiresAt, now, 2 * m.ttl),
    secret_ttl: live ? remaining(m.secretExpiresAt, now, m.ttl) : 0,
    ...(m.recipient !== null ? { recipient: m.recipient } : {}),
    created: unix(m.createdAt),
    updated: unix(m.updatedAt),
    received: m.receivedAt ? unix(m.receivedAt) : 0,
    passphrase_required: m.passphraseRequired,
    state,
    ...(m.delivery
      ? {
          delivery_status: m.delivery.status,
          delivery_updated: unix(m.delivery.updatedAt),
          ...(m.delivery.status === 'failed' && m.delivery.reason ? { delivery_reason: m.delivery.reason } : {}),
        }
      : {}),
  };
}

import { NOTIFICATION_EVENTS, NOTIFY_EVENTS } from '@hush/queue';
import { z } from 'zod';
import { GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from './generate-value.js';
import type { BurnedView, MetadataView } from './metadata.js';
import { METADATA_STATES, stateOf, type MetadataState } from './metadata-state.js';
import type { RevealedSecret } from './reveal.js';
import type { CreatedSecret } from './share.js';
import type { MetadataRecord } from './secrets.repository.js';

/**
 * The `spec` dialect (API_DIALECT=spec): response shapes of docs/api.md, with Onetime Secret
 * v1's types: integers for every time and TTL (Unix seconds), `ttl` the requested value,
 * `recipient` a string only when one was given, a flat burn result with `status`. The
 * OpenAPI document is generated from these schemas (http/openapi.ts) and the types below are
 * inferred from them; responses are not parsed at run time (test/openapi.test.ts checks real
 * ones against the document).
 */
export const key = z.string().regex(/^[0-9a-z]{31}$/);
export const unixTime = z.int().min(0).describe('Unix time, seconds (UTC)');
export const seconds = z.int().min(0);
/** Echoed as given at creation, `""` when none was. */
export const shareDomainField = z.string().describe('The share_domain given at creation, "" when none');

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
  recipient_only: z.literal(true).optional().describe('Only the recipient can read it (recipient_only)'),
  created: unixTime,
  updated: unixTime,
  passphrase_required: z.boolean(),
  state: z.literal('new'),
  share_domain: shareDomainField,
});

/** generate's answer: the secret object with the value, shown this once. */
export const generatedSecretResponse = secretResponse.extend({ value: z.string().min(GENERATE_MIN_LENGTH).max(GENERATE_MAX_LENGTH) });

export const revealResponse = z.strictObject({ secret_key: key, value: z.string() });

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
  received_by: z
    .string()
    .optional()
    .describe(
      'Who read it, when the reader was known: the account (a requested or recipient-only secret), or "verified address" (a recipient-only secret opened with a one-time code)',
    ),
  recipient_only: z.literal(true).optional().describe('Only its recipient can read it (the share option recipient_only)'),
  refused_attempts: z.int().min(1).optional().describe('Recipient-only: openings refused to someone who was not its recipient; absent: none'),
  burned: unixTime.optional().describe('When the secret was burned'),
  request_label: z.string().optional().describe('The label of the request this secret answered; only the owner’s account can read it'),
  passphrase_required: z.boolean(),
  state: z.enum(METADATA_STATES),
  share_domain: shareDomainField,
  delivery_status: z.enum(['queued', 'sent', 'failed']).optional().describe('With a recipient: whether the e-mail with the link left'),
  delivery_updated: unixTime.optional().describe('When delivery_status last changed'),
  delivery_reason: z.string().optional().describe('Why delivery failed (never the address)'),
  notify: z.array(z.enum(NOTIFY_EVENTS)).optional().describe('The events its creator is told about by e-mail (the share option notify); absent: none'),
  notify_status: z
    .partialRecord(z.enum(NOTIFICATION_EVENTS), z.enum(['sent', 'failed']))
    .optional()
    .describe('What became of each notification e-mail that has an outcome, by event'),
  zero_knowledge: z
    .literal(true)
    .optional()
    .describe("Encrypted by its creator's client; its link needs the key this service never had (docs/zero-knowledge.md). Absent: encrypted here"),
  file_size: z.int().min(0).optional().describe('A zero-knowledge secret with a file: the bytes stored (encrypted records)'),
});

export const burnResponse = metadataResponse.extend({ status: z.literal('burned'), state: z.literal('burned'), secret_key: z.null() });

/**
 * `recent` lists the caller's own items with their metadata key (null only for items created
 * before the key was kept for its owner); secret keys are never listed.
 */
export const recentItem = metadataResponse.extend({ metadata_key: key.nullable(), secret_key: z.null(), metadata_shortkey: z.string().regex(/^[0-9a-z]{6}$/) });

export type SecretResponse = z.output<typeof secretResponse> & Partial<Pick<z.output<typeof generatedSecretResponse>, 'value'>>;
export type { MetadataState };
export type RevealResponse = z.output<typeof revealResponse>;
export type MetadataResponse = z.output<typeof metadataResponse>;
/** As the schema, with the key fields typed as the presenter builds them. */
export type BurnResponse = MetadataResponse & { status: 'burned' };
export type RecentItem = MetadataResponse & { metadata_shortkey: string };

export const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
export const remaining = (until: Date, now: number, cap: number, round: (x: number) => number = Math.ceil): number =>
  Math.max(0, Math.min(cap, round((until.getTime() - now) / 1000)));

/**
 * The end of the metadata's lifetime as Onetime Secret counts it, 2 x ttl after creation, which
 * `metadata_ttl` counts down to (its clients check it); the receipt itself may be kept longer
 * (RECEIPT_RETENTION) and then answers 0.
 */
export const metadataTtlEnd = (m: MetadataRecord): Date => new Date(Math.min(m.expiresAt.getTime(), m.createdAt.getTime() + 2 * m.ttl * 1000));

/** The keys and times both dialects open a created secret's answer with, in this order. */
export const createdKeys = (c: CreatedSecret) => ({
  custid: c.custid,
  metadata_key: c.metadataKey,
  secret_key: c.secretKey,
  ttl: c.ttl,
  metadata_ttl: 2 * c.ttl,
  secret_ttl: c.ttl,
});

export function presentCreated(c: CreatedSecret): SecretResponse {
  const created = unix(c.createdAt);
  return {
    ...createdKeys(c),
    ...(c.recipient !== null ? { recipient: c.recipient } : {}),
    ...(c.recipientOnly ? { recipient_only: true as const } : {}),
    created,
    updated: created,
    passphrase_required: c.passphraseRequired,
    state: 'new',
    share_domain: c.shareDomain ?? '',
    ...(c.value !== undefined ? { value: c.value } : {}),
  };
}

/** `secretKey` is the unsealed key while the secret is unread (null otherwise, and always null in `recent`). */
export function presentMetadata({ record: m, metadataKey, secretKey }: MetadataView, now = Date.now()): MetadataResponse {
  const state = stateOf(m, now);
  const live = state === 'new' || state === 'viewed';
  return {
    custid: m.custid,
    metadata_key: metadataKey,
    secret_key: live ? secretKey : null,
    ttl: m.ttl,
    metadata_ttl: remaining(metadataTtlEnd(m), now, 2 * m.ttl),
    secret_ttl: live ? remaining(m.secretExpiresAt, now, m.ttl) : 0,
    ...(m.recipient !== null ? { recipient: m.recipient } : {}),
    created: unix(m.createdAt),
    updated: unix(m.updatedAt),
    received: m.receivedAt ? unix(m.receivedAt) : 0,
    ...(m.receivedBy !== null ? { received_by: m.receivedBy } : {}),
    ...(m.recipientOnly ? { recipient_only: true as const } : {}),
    ...(m.refusedAttempts > 0 ? { refused_attempts: m.refusedAttempts } : {}),
    ...(m.burnedAt ? { burned: unix(m.burnedAt) } : {}),
    ...(m.requestLabel !== null ? { request_label: m.requestLabel } : {}),
    passphrase_required: m.passphraseRequired,
    state,
    share_domain: m.shareDomain ?? '',
    ...(m.delivery
      ? {
          delivery_status: m.delivery.status,
          delivery_updated: unix(m.delivery.updatedAt),
          ...(m.delivery.status === 'failed' && m.delivery.reason ? { delivery_reason: m.delivery.reason } : {}),
        }
      : {}),
    ...(m.notifyOn.length ? { notify: m.notifyOn } : {}),
    ...(Object.keys(m.notifyStatus).length ? { notify_status: m.notifyStatus } : {}),
    ...(m.zeroKnowledge ? { zero_knowledge: true as const } : {}),
    ...(m.fileBytes !== null ? { file_size: m.fileBytes } : {}),
  };
}

/** Both dialects answer a read alike. */
export const presentReveal = (r: RevealedSecret): RevealResponse => ({ secret_key: r.secretKey, value: r.value });

export const presentBurn = (view: BurnedView): BurnResponse => ({ ...presentMetadata({ ...view, secretKey: null }), status: 'burned' });

export const presentRecentItem = (view: MetadataView): RecentItem => ({
  ...presentMetadata({ ...view, secretKey: null }),
  metadata_shortkey: view.record.metadataShortkey,
});

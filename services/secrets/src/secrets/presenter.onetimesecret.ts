import { z } from 'zod';
import { GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from './generate-value.js';
import type { BurnedView, MetadataView } from './metadata.js';
import { METADATA_STATES, stateOf } from './metadata-state.js';
import { createdKeys, key, metadataTtlEnd, remaining, seconds, shareDomainField, unix, unixTime } from './presenter.js';
import type { CreatedSecret } from './share.js';

/**
 * The `onetimesecret` dialect (API_DIALECT=onetimesecret): Onetime Secret v1's shapes, as its
 * clients parse them (the bash client's test suite, the Go and JS clients; see
 * docs/api-dialects.md), which is mostly the classic server they were written against:
 * - `recipient` is an array (`[]` when none), as both Go clients decode it;
 * - share/generate: `ttl` the requested value, `state: "new"`;
 * - metadata, burn, recent: `ttl` is twice the requested value (the metadata's own lifetime, as
 *   the classic server stored it and the bash suite asserts); remaining times are whole seconds
 *   rounded down, as Redis reports them;
 * - absent, not null: `secret_key` and `secret_ttl` once received, `received` until then,
 *   `passphrase_required` in recent and burn and once the secret is gone; `secret_key` is `""`
 *   after a burn or expiry;
 * - burn: `{ "state": <metadata>, "secret_shortkey": <first 6 characters of the secret key> }`;
 * - no Hush extras (delivery status, metadata_shortkey), but for `recipient_only` on a created
 *   secret that asked for it (an extension its clients ignore).
 */
const recipients = z.array(z.string()).describe('Obfuscated address of the recipient; [] when none');

export const otsSecretResponse = z.strictObject({
  custid: z.string(),
  metadata_key: key,
  secret_key: key,
  ttl: seconds.describe('The requested TTL'),
  metadata_ttl: seconds,
  secret_ttl: seconds,
  state: z.literal('new'),
  updated: unixTime,
  created: unixTime,
  recipient: recipients,
  recipient_only: z.literal(true).optional().describe('Extension: only the recipient can read it (the share option recipient_only)'),
  passphrase_required: z.boolean(),
  share_domain: shareDomainField,
});

export const otsGeneratedSecretResponse = otsSecretResponse.extend({ value: z.string().min(GENERATE_MIN_LENGTH).max(GENERATE_MAX_LENGTH) });

const metadataFields = {
  custid: z.string(),
  metadata_key: key,
  ttl: seconds.describe('Twice the requested TTL: the lifetime of the metadata'),
  metadata_ttl: seconds,
  secret_ttl: seconds.nullable().optional().describe('Absent once received; null once burned or expired'),
  state: z.enum(METADATA_STATES),
  updated: unixTime,
  created: unixTime,
  received: unixTime.optional().describe('Only when received'),
  recipient: recipients,
  share_domain: shareDomainField,
};

export const otsMetadataResponse = z.strictObject({
  ...metadataFields,
  secret_key: z
    .union([key, z.literal('')])
    .optional()
    .describe('Absent once received; "" once burned or expired'),
  passphrase_required: z.boolean().optional().describe('Absent once the secret is gone'),
});

export const otsBurnResponse = z.strictObject({
  state: z.strictObject({ ...metadataFields, secret_key: z.literal(''), state: z.literal('burned') }),
  secret_shortkey: z.string().regex(/^[0-9a-z]{6}$/),
});

export const otsRecentItem = z.strictObject({
  ...metadataFields,
  metadata_key: key.nullable().describe('null only for secrets created before Hush kept the key for its owner'),
});

export const otsErrorResponse = z.strictObject({
  message: z.string(),
  secret_key: z.string().optional().describe('The key of the path, with "Unknown secret"'),
});

export type OtsSecretResponse = z.output<typeof otsSecretResponse> & { value?: string };
export type OtsMetadataResponse = z.output<typeof otsMetadataResponse>;
export type OtsBurnResponse = z.output<typeof otsBurnResponse>;
export type OtsRecentItem = z.output<typeof otsRecentItem>;

const list = (recipient: string | null): string[] => (recipient === null ? [] : [recipient]);

export function presentCreatedOts(c: CreatedSecret): OtsSecretResponse {
  const created = unix(c.createdAt);
  return {
    ...createdKeys(c),
    state: 'new',
    updated: created,
    created,
    recipient: list(c.recipient),
    ...(c.recipientOnly ? { recipient_only: true as const } : {}),
    passphrase_required: c.passphraseRequired,
    share_domain: c.shareDomain ?? '',
    ...(c.value !== undefined ? { value: c.value } : {}),
  };
}

type Shown = 'show' | 'burn' | 'recent';

function metadataHash({ record: m, metadataKey, secretKey }: MetadataView, shown: Shown, now: number) {
  const state = stateOf(m, now);
  const live = state === 'new' || state === 'viewed';
  const received = state === 'received';
  return {
    custid: m.custid,
    metadata_key: metadataKey ?? '',
    ...(shown === 'recent' || received ? {} : { secret_key: live && secretKey ? secretKey : '' }),
    ttl: 2 * m.ttl,
    metadata_ttl: remaining(metadataTtlEnd(m), now, 2 * m.ttl, Math.floor),
    ...(received ? {} : { secret_ttl: live ? remaining(m.secretExpiresAt, now, m.ttl, Math.floor) : null }),
    state,
    updated: unix(m.updatedAt),
    created: unix(m.createdAt),
    ...(received ? { received: m.receivedAt ? unix(m.receivedAt) : 0 } : {}),
    recipient: list(m.recipient),
    ...(shown === 'show' && live ? { passphrase_required: m.passphraseRequired } : {}),
    share_domain: m.shareDomain ?? '',
  };
}

export const presentMetadataOts = (view: MetadataView, now = Date.now()): OtsMetadataResponse => metadataHash(view, 'show', now);

export function presentBurnOts(view: BurnedView, now = Date.now()): OtsBurnResponse {
  return {
    state: metadataHash({ ...view, secretKey: null }, 'burn', now) as OtsBurnResponse['state'],
    secret_shortkey: (view.burnedSecretKey ?? '').slice(0, 6),
  };
}

export function presentRecentItemOts(view: MetadataView, now = Date.now()): OtsRecentItem {
  const { metadata_key, ...rest } = metadataHash(view, 'recent', now);
  return { ...rest, metadata_key: view.metadataKey === null ? null : metadata_key };
}

import type { MetadataRecord } from './secrets.repository.js';

/**
 * Response shapes of spec 2.2-2.4, with Onetime Secret v1's types: integers for every time and
 * TTL (Unix seconds), `ttl` the requested value, `recipient` only when one was given.
 */
export interface SecretResponse {
  custid: string;
  metadata_key: string;
  secret_key: string;
  ttl: number;
  metadata_ttl: number;
  secret_ttl: number;
  recipient?: string;
  created: number;
  updated: number;
  passphrase_required: boolean;
  value?: string;
}

export type MetadataState = 'new' | 'viewed' | 'received' | 'burned' | 'expired';

export interface MetadataResponse {
  custid: string;
  metadata_key: string | null;
  secret_key: string | null;
  ttl: number;
  metadata_ttl: number;
  secret_ttl: number;
  recipient?: string;
  created: number;
  updated: number;
  received: number;
  passphrase_required: boolean;
  state: MetadataState;
  /** With a recipient: whether the e-mail left (`queued`, `sent`, `failed`) and when (Unix seconds). */
  delivery_status?: 'queued' | 'sent' | 'failed';
  delivery_updated?: number;
  delivery_reason?: string;
  metadata_shortkey?: string;
  status?: 'burned';
}

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

import type { MetadataRecord } from './secrets.repository.js';

export const METADATA_STATES = ['new', 'viewed', 'received', 'burned', 'expired'] as const;
export type MetadataState = (typeof METADATA_STATES)[number];

/** `expired` is computed, not stored: an unread secret past its TTL is expired whether or not the sweeper ran. */
export function stateOf(m: MetadataRecord, now = Date.now()): MetadataState {
  if (m.state === 'received' || m.state === 'burned') return m.state;
  return m.secretExpiresAt.getTime() <= now ? 'expired' : m.state;
}

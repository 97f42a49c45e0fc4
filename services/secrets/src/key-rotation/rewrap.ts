import { rewrapTargets, type KeyRing, type RewrapProgress, type RewrapTarget } from '@hush/common';
import type { Db } from '../db/knex.js';
import { KEY_LABELS } from '../key-labels.js';
import type { KeyFingerprintRepository } from '../key-fingerprint/key-fingerprint.repository.js';
import { keyFingerprint } from '../key-fingerprint/key-fingerprint.js';
import type { SecretCrypto } from '../secrets/secret-crypto.js';

const bytes = (v: unknown) => v as Buffer;
const text = (v: unknown) => String(v);

/**
 * Every column this service seals under MASTER_KEY, with how to move it under the newest key. The
 * one-time-code hashes (`recipient_codes`) are not here: a hash cannot be moved, and a code lives
 * minutes; codes made under an older key are still accepted while it is in the ring.
 */
export function rewrapTargetsOf(crypto: SecretCrypto, masterKeys: KeyRing): RewrapTarget[] {
  const r = crypto.rewrappable;
  const webSessions = masterKeys.derive(KEY_LABELS.webSession);
  return [
    { name: 'secrets.ciphertext', table: 'secrets', key: 'secret_hash', column: 'ciphertext', rewrap: (row, s) => r.value(bytes(row['secret_hash']), s) },
    {
      name: 'secrets.recipient_sealed',
      table: 'secrets',
      key: 'secret_hash',
      column: 'recipient_sealed',
      rewrap: (row, s) => r.recipient(bytes(row['secret_hash']), s),
    },
    {
      name: 'secrets.handover_sealed',
      table: 'secrets',
      key: 'secret_hash',
      column: 'handover_sealed',
      rewrap: (row, s) => r.handover(bytes(row['secret_hash']), s),
    },
    {
      name: 'metadata.secret_key_sealed',
      table: 'metadata',
      key: 'metadata_hash',
      column: 'secret_key_sealed',
      rewrap: (row, s) => r.secretKey(bytes(row['metadata_hash']), s),
    },
    {
      name: 'metadata.metadata_key_sealed',
      table: 'metadata',
      key: 'metadata_hash',
      column: 'metadata_key_sealed',
      columns: ['custid'],
      rewrap: (row, s) => r.metadataKey(text(row['custid']), bytes(row['metadata_hash']), s),
    },
    { name: 'metadata.notify_sealed', table: 'metadata', key: 'metadata_hash', column: 'notify_sealed', rewrap: (row, s) => r.notify(bytes(row['metadata_hash']), s) },
    {
      name: 'outbox.payload_sealed',
      table: 'outbox',
      key: 'id',
      column: 'payload_sealed',
      columns: ['metadata_hash', 'notify_event'],
      rewrap: (row, s) => (row['notify_event'] === null ? r.outbox(text(row['id']), s) : r.notify(bytes(row['metadata_hash']), s)),
    },
    {
      name: 'secret_requests.request_key_sealed',
      table: 'secret_requests',
      key: 'id',
      column: 'request_key_sealed',
      columns: ['custid', 'request_hash'],
      rewrap: (row, s) => r.requestKey(text(row['custid']), bytes(row['request_hash']), s),
    },
    {
      name: 'secret_requests.recipient_sealed',
      table: 'secret_requests',
      key: 'id',
      column: 'recipient_sealed',
      rewrap: (row, s) => r.requestRecipient(text(row['id']), s),
    },
    {
      name: 'web_sessions.tokens_sealed',
      table: 'web_sessions',
      key: 'id_hash',
      column: 'tokens_sealed',
      rewrap: (row, s) => webSessions.rewrap(s, `web-session:${bytes(row['id_hash']).toString('hex')}`),
    },
  ];
}

export interface RewrapReport {
  /** Each column: rows moved, rows left under an older key. */
  columns: RewrapProgress[];
  /** Rows still needing an older key (sealed before key rings: they need their link; they go as they are read or expire). */
  left: number;
  /** Whether the keys of MASTER_KEYS_PREVIOUS can now be removed. */
  previousKeysRemovable: boolean;
}

/**
 * Moves everything this service sealed under an older MASTER_KEY under the newest, batch by batch
 * (`onProgress` after each); when nothing is left, the database's recorded key fingerprint
 * becomes the newest key's, so a process started with only an older key refuses to start.
 */
export async function rewrapAll(
  deps: { db: Db; crypto: SecretCrypto; masterKeys: KeyRing; fingerprints: Pick<KeyFingerprintRepository, 'record'> },
  options: { batchSize: number; onProgress?: (progress: RewrapProgress) => void },
): Promise<RewrapReport> {
  const columns = await rewrapTargets(deps.db, rewrapTargetsOf(deps.crypto, deps.masterKeys), { newestId: deps.masterKeys.newest.id, ...options });
  const left = columns.reduce((sum, c) => sum + c.left, 0);
  if (left === 0) await deps.fingerprints.record('MASTER_KEY', keyFingerprint(deps.masterKeys.newest.key));
  return { columns, left, previousKeysRemovable: left === 0 };
}

import { rewrapTargets, type KeyRing, type RewrapProgress, type RewrapTarget } from '@hush/common';
import type { ClientSecretSeal } from '../clients/index.js';
import type { Db } from '../db/index.js';
import { KEY_LABELS } from '../key-labels.js';
import { rewrapTotpSecret } from '../login/index.js';
import type { SigningKeys } from '../keys/index.js';

/**
 * Every column identity seals under MASTER_KEY, with how to move it under the newest key. Not
 * here, because they cannot be moved: the recovery codes' keyed hashes (checked under each key of
 * the ring, docs/deploy.md says what removing an older key does to them), and device codes and
 * cookies, which live minutes to days and are opened under any key of the ring meanwhile.
 */
export function rewrapTargetsOf(deps: { masterKeys: KeyRing; signingKeys: SigningKeys; secretSeal: ClientSecretSeal }): RewrapTarget[] {
  const totpKeys = deps.masterKeys.derive(KEY_LABELS.totpSecrets);
  const outboxKeys = deps.masterKeys.derive(KEY_LABELS.mailOutbox);
  return [
    {
      name: 'signing_keys.private_jwk_sealed',
      table: 'signing_keys',
      key: 'kid',
      column: 'private_jwk_sealed',
      rewrap: (row, sealed) => deps.signingKeys.rewrap(String(row['kid']), sealed),
    },
    { name: 'clients.secret_sealed', table: 'clients', key: 'id', column: 'secret_sealed', rewrap: (row, sealed) => deps.secretSeal.rewrap(String(row['id']), sealed) },
    {
      name: 'user_credentials.secret_sealed',
      table: 'user_credentials',
      key: 'id',
      column: 'secret_sealed',
      where: `type = 'otp'`,
      rewrap: (row, sealed) => rewrapTotpSecret({ totpKeys }, String(row['id']), sealed),
    },
    {
      name: 'mail_outbox.payload_sealed',
      table: 'mail_outbox',
      key: 'id',
      column: 'payload_sealed',
      rewrap: (row, sealed) => outboxKeys.rewrap(sealed, `mail_outbox:${String(row['id'])}`),
    },
  ];
}

export interface RewrapReport {
  /** Each column: rows moved, rows left under an older key. */
  columns: RewrapProgress[];
  /** Rows that no key of the ring opened (tampered, or sealed under a key no longer given). */
  left: number;
  /** Whether the keys of MASTER_KEYS_PREVIOUS can now be removed. */
  previousKeysRemovable: boolean;
}

/** Moves everything identity sealed under an older MASTER_KEY under the newest, batch by batch (`onProgress` after each). */
export async function rewrapAll(
  deps: { db: Db; masterKeys: KeyRing; signingKeys: SigningKeys; secretSeal: ClientSecretSeal },
  options: { batchSize: number; onProgress?: (progress: RewrapProgress) => void },
): Promise<RewrapReport> {
  const columns = await rewrapTargets(deps.db, rewrapTargetsOf(deps), { newestId: deps.masterKeys.newest.id, ...options });
  const left = columns.reduce((sum, c) => sum + c.left, 0);
  return { columns, left, previousKeysRemovable: left === 0 };
}

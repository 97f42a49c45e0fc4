import type { Knex } from 'knex';
import { batchedPerItem } from '../db/batch.js';
import type { Db } from '../db/knex.js';

/** A metadata row as the presenter needs it (hashes and sealed blobs stay opaque). */
export interface MetadataRecord {
  id: number;
  metadataHash: Buffer;
  metadataShortkey: string;
  custid: string;
  state: 'new' | 'viewed' | 'received' | 'burned';
  ttl: number;
  passphraseRequired: boolean;
  recipient: string | null;
  secretKeySealed: Buffer | null;
  /** The metadata key sealed for its owner (null for anonymous rows and rows older than it). */
  metadataKeySealed: Buffer | null;
  anonymous: boolean;
  shareDomain: string | null;
  createdAt: Date;
  updatedAt: Date;
  receivedAt: Date | null;
  secretExpiresAt: Date;
  expiresAt: Date;
  delivery: { status: 'queued' | 'sent' | 'failed'; updatedAt: Date; reason: string | null } | null;
}

export interface NewSecret {
  metadataHash: Buffer;
  metadataShortkey: string;
  secretHash: Buffer;
  custid: string;
  ttl: number;
  passphraseHash: string | null;
  recipientObfuscated: string | null;
  /** The e-mail request for the recipient, written in the same statement (transactional outbox). */
  outbox: { id: string; payloadSealed: Buffer } | null;
  secretKeySealed: Buffer;
  metadataKeySealed: Buffer | null;
  /** `viewed` when the dialect shows a generated secret as viewed at once (Onetime Secret classic). */
  state: 'new' | 'viewed';
  anonymous: boolean;
  shareDomain: string | null;
  ciphertext: Buffer;
}

type MetadataRow = {
  id: number;
  metadata_hash: Buffer;
  custid: string;
  metadata_shortkey: string;
  state: MetadataRecord['state'];
  ttl: number;
  passphrase_required: boolean;
  recipient_obfuscated: string | null;
  secret_key_sealed: Buffer | null;
  metadata_key_sealed: Buffer | null;
  anonymous: boolean;
  share_domain: string | null;
  created_at: Date;
  updated_at: Date;
  received_at: Date | null;
  secret_expires_at: Date;
  expires_at: Date;
  delivery_status: 'queued' | 'sent' | 'failed' | null;
  delivery_updated_at: Date | null;
  delivery_reason: string | null;
};

const METADATA_COLUMNS = `id, metadata_hash, metadata_shortkey, custid, state, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
  metadata_key_sealed, anonymous, share_domain, created_at, updated_at, received_at, secret_expires_at, expires_at, delivery_status, delivery_updated_at, delivery_reason`;

const toRecord = (r: MetadataRow): MetadataRecord => ({
  id: r.id,
  metadataHash: r.metadata_hash,
  metadataShortkey: r.metadata_shortkey,
  custid: r.custid,
  state: r.state,
  ttl: r.ttl,
  passphraseRequired: r.passphrase_required,
  recipient: r.recipient_obfuscated,
  secretKeySealed: r.secret_key_sealed,
  metadataKeySealed: r.metadata_key_sealed,
  anonymous: r.anonymous,
  shareDomain: r.share_domain,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  receivedAt: r.received_at,
  secretExpiresAt: r.secret_expires_at,
  expiresAt: r.expires_at,
  delivery: r.delivery_status ? { status: r.delivery_status, updatedAt: r.delivery_updated_at as Date, reason: r.delivery_reason } : null,
});

/**
 * THE one-time read, for every claim of one event-loop turn: a single DELETE ... RETURNING that
 * also marks the metadata received. A row is deleted (and returned) by one statement only, so a
 * key is revealed at most once whatever the concurrency; an expired row is never returned.
 */
const CLAIM = (extraCondition: string) => `
  WITH s AS (
    DELETE FROM secrets WHERE secret_hash = ANY(?::bytea[]) AND expires_at > now() ${extraCondition}
    RETURNING secret_hash, metadata_hash, ciphertext
  ), m AS (
    UPDATE metadata SET state = 'received', received_at = now(), updated_at = now(), secret_key_sealed = NULL
    FROM s WHERE metadata.metadata_hash = s.metadata_hash
    RETURNING metadata.metadata_hash
  )
  SELECT s.secret_hash, s.ciphertext FROM s`;
const CLAIM_PLAIN = CLAIM('AND passphrase_hash IS NULL');
const CLAIM_ANY = CLAIM('');

/**
 * Metadata, secret and (with a recipient) outbox row of every share of one event-loop turn, in
 * ONE statement: all the rows of a share exist, or none (and when the statement fails, each share
 * is retried alone, see db/batch.ts). Times come from the database clock.
 */
const INSERT = `
  WITH input AS (
    SELECT * FROM unnest(?::bytea[], ?::text[], ?::text[], ?::int[], ?::bool[], ?::text[], ?::bytea[], ?::uuid[], ?::bytea[], ?::bytea[], ?::bytea[], ?::text[],
                         ?::bytea[], ?::text[], ?::bool[], ?::text[])
      AS t(metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
           outbox_id, outbox_payload, secret_hash, ciphertext, passphrase_hash, metadata_key_sealed, state, anonymous, share_domain)
  ), m AS (
    INSERT INTO metadata (metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
                          metadata_key_sealed, state, anonymous, share_domain,
                          delivery_id, delivery_status, delivery_updated_at, secret_expires_at, expires_at)
    SELECT metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
           metadata_key_sealed, state, anonymous, share_domain,
           outbox_id, CASE WHEN outbox_id IS NULL THEN NULL ELSE 'queued' END, CASE WHEN outbox_id IS NULL THEN NULL ELSE now() END,
           now() + make_interval(secs => ttl), now() + make_interval(secs => 2 * ttl)
    FROM input
    RETURNING metadata_hash, secret_expires_at
  ), o AS (
    INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at)
    SELECT input.outbox_id, m.metadata_hash, input.outbox_payload, m.secret_expires_at
    FROM input JOIN m ON m.metadata_hash = input.metadata_hash WHERE input.outbox_id IS NOT NULL
  )
  INSERT INTO secrets (secret_hash, metadata_hash, ciphertext, passphrase_hash, expires_at)
  SELECT input.secret_hash, m.metadata_hash, input.ciphertext, input.passphrase_hash, m.secret_expires_at
  FROM input JOIN m ON m.metadata_hash = input.metadata_hash
  RETURNING secret_hash, created_at`;

/**
 * One statement of each kind out at a time (group commit): the shares (or reads) that arrive while
 * it runs go together in the next, so under load the database sees fewer, larger statements and
 * commits; docs/performance.md has the figures.
 */
const ONE_AT_A_TIME = { maxInFlight: 1 };
export class SecretsRepository {
  constructor(private readonly db: Db) {}

  /** Metadata and secret in one statement: both rows exist, or neither. Times come from the database clock. */
  insert(s: NewSecret): Promise<{ createdAt: Date }> {
    return this.insertBatched(s);
  }

  private readonly insertBatched = batchedPerItem(async (items: NewSecret[]): Promise<{ createdAt: Date }[]> => {
    const { rows } = await this.db.raw<{ rows: { secret_hash: Buffer; created_at: Date }[] }>(INSERT, [
      items.map((s) => s.metadataHash),
      items.map((s) => s.metadataShortkey),
      items.map((s) => s.custid),
      items.map((s) => s.ttl),
      items.map((s) => s.passphraseHash !== null),
      items.map((s) => s.recipientObfuscated),
      items.map((s) => s.secretKeySealed),
      items.map((s) => s.outbox?.id ?? null),
      items.map((s) => s.outbox?.payloadSealed ?? null),
      items.map((s) => s.secretHash),
      items.map((s) => s.ciphertext),
      items.map((s) => s.passphraseHash),
      items.map((s) => s.metadataKeySealed),
      items.map((s) => s.state),
      items.map((s) => s.anonymous),
      items.map((s) => s.shareDomain),
    ] as unknown as readonly Knex.RawBinding[]);
    const created = new Map(rows.map((r) => [r.secret_hash.toString('hex'), r.created_at]));
    return items.map((s) => {
      const createdAt = created.get(s.secretHash.toString('hex'));
      if (!createdAt) throw new Error('a share of the batch was not stored');
      return { createdAt };
    });
  }, ONE_AT_A_TIME);

  /**
   * THE one-time read: a single DELETE ... RETURNING that also marks the metadata received.
   * Under any number of concurrent calls for one key, exactly one gets the row; an expired row
   * is never returned, whether or not the sweeper has run. `withoutPassphrase` restricts it to
   * secrets that have none (passphrase secrets are claimed only after their passphrase checked out).
   * The claims of one event-loop turn share one statement; a key claimed twice in it goes to the
   * first caller only (the others see no secret, as they would have one statement later).
   */
  claim(secretHash: Buffer, withoutPassphrase: boolean): Promise<Buffer | undefined> {
    return withoutPassphrase ? this.claimPlain(secretHash) : this.claimAny(secretHash);
  }

  private claimMany(sql: string) {
    return async (hashes: Buffer[]): Promise<(Buffer | undefined)[]> => {
      // Distinct keys in one (byte) order: concurrent batches lock their rows in the same order.
      const distinct = [...new Map(hashes.map((h) => [h.toString('hex'), h])).values()].sort((a, b) => Buffer.compare(a, b));
      const { rows } = await this.db.raw<{ rows: { secret_hash: Buffer; ciphertext: Buffer }[] }>(sql, [distinct] as unknown as readonly Knex.RawBinding[]);
      const claimed = new Map(rows.map((r) => [r.secret_hash.toString('hex'), r.ciphertext]));
      return hashes.map((h) => {
        const key = h.toString('hex');
        const ciphertext = claimed.get(key);
        claimed.delete(key); // one row, one caller
        return ciphertext;
      });
    };
  }

  private readonly claimPlain = batchedPerItem(this.claimMany(CLAIM_PLAIN), ONE_AT_A_TIME);
  private readonly claimAny = batchedPerItem(this.claimMany(CLAIM_ANY), ONE_AT_A_TIME);

  /** Whether a live secret with this hash exists and needs a passphrase (undefined: no live secret). */
  async needsPassphrase(secretHash: Buffer): Promise<boolean | undefined> {
    const row = await this.db('secrets')
      .select<{ locked: boolean }[]>(this.db.raw('passphrase_hash IS NOT NULL AS locked'))
      .where('secret_hash', secretHash)
      .andWhereRaw('expires_at > now()')
      .first();
    return row ? Boolean(row.locked) : undefined;
  }

  /**
   * Counts a passphrase attempt before it is checked, so concurrent guesses cannot exceed the
   * limit: once `max` attempts are reserved, no further one is handed out.
   */
  async reserveAttempt(secretHash: Buffer, max: number): Promise<{ passphraseHash: string; attempts: number } | undefined> {
    const { rows } = await this.db.raw<{ rows: { passphrase_hash: string; passphrase_attempts: number }[] }>(
      `UPDATE secrets SET passphrase_attempts = passphrase_attempts + 1
       WHERE secret_hash = ? AND expires_at > now() AND passphrase_hash IS NOT NULL AND passphrase_attempts < ?
       RETURNING passphrase_hash, passphrase_attempts`,
      [secretHash, max],
    );
    const row = rows[0];
    return row ? { passphraseHash: row.passphrase_hash, attempts: row.passphrase_attempts } : undefined;
  }

  /** Too many wrong passphrases: the secret is deleted and its metadata says burned. */
  async destroy(secretHash: Buffer): Promise<void> {
    await this.db.raw(
      `WITH s AS (DELETE FROM secrets WHERE secret_hash = ? RETURNING metadata_hash)
       UPDATE metadata SET state = 'burned', burned_at = now(), updated_at = now(), secret_key_sealed = NULL
       FROM s WHERE metadata.metadata_hash = s.metadata_hash`,
      [secretHash],
    );
  }

  /** By the metadata key alone: the key is the capability, on the API as on the receipt page. */
  async findMetadata(metadataHash: Buffer): Promise<MetadataRecord | undefined> {
    const { rows } = await this.db.raw<{ rows: MetadataRow[] }>(`SELECT ${METADATA_COLUMNS} FROM metadata WHERE metadata_hash = ? AND expires_at > now()`, [metadataHash]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** The creator looked at the metadata while the secret was unread (Onetime Secret's `viewed`). */
  async markViewed(metadataHash: Buffer): Promise<void> {
    await this.db.raw(`UPDATE metadata SET state = 'viewed', updated_at = now() WHERE metadata_hash = ? AND state = 'new' AND secret_expires_at > now()`, [metadataHash]);
  }

  /** Burns an unread, unexpired secret in one statement; undefined if there was none. */
  async burn(metadataHash: Buffer): Promise<MetadataRecord | undefined> {
    const { rows } = await this.db.raw<{ rows: MetadataRow[] }>(
      `WITH s AS (
         DELETE FROM secrets WHERE metadata_hash = ? AND expires_at > now()
         RETURNING metadata_hash
       )
       UPDATE metadata SET state = 'burned', burned_at = now(), updated_at = now(), secret_key_sealed = NULL
       FROM s WHERE metadata.metadata_hash = s.metadata_hash
       RETURNING ${METADATA_COLUMNS.split(',')
         .map((c) => `metadata.${c.trim()}`)
         .join(', ')}`,
      [metadataHash],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** The account's live metadata, newest first; `beforeId` pages backwards. Anonymous rows are never listed. */
  async recent(custid: string, limit: number, beforeId: number | undefined): Promise<MetadataRecord[]> {
    const { rows } = await this.db.raw<{ rows: MetadataRow[] }>(
      `SELECT ${METADATA_COLUMNS} FROM metadata
       WHERE custid = ? AND NOT anonymous AND expires_at > now() AND id < ?
       ORDER BY id DESC LIMIT ?`,
      [custid, beforeId ?? Number.MAX_SAFE_INTEGER, limit],
    );
    return rows.map(toRecord);
  }

  /**
   * Physical deletion of what has expired; idempotent, safe to run from every instance at once.
   * Reads never depend on it (they check expires_at themselves).
   */
  async sweep(): Promise<{ secrets: number; metadata: number; sealedKeys: number }> {
    return this.db.transaction(async (trx) => {
      const secrets = await trx('secrets').whereRaw('expires_at <= now()').delete();
      const sealedKeys = await trx('metadata').whereNotNull('secret_key_sealed').andWhereRaw('secret_expires_at <= now()').update({ secret_key_sealed: null });
      // A delivery still pending when its secret expires will never happen: say so on the metadata
      // (which outlives the secret) rather than leave it `queued`.
      await trx.raw(
        `UPDATE metadata m SET delivery_status = 'failed', delivery_updated_at = now(),
           delivery_reason = 'the secret expired before the e-mail was delivered'
         FROM outbox o WHERE o.metadata_hash = m.metadata_hash AND o.expires_at <= now() AND m.delivery_status = 'queued'`,
      );
      await trx('outbox').whereRaw('expires_at <= now()').delete();
      const metadata = await trx('metadata').whereRaw('expires_at <= now()').delete();
      return { secrets, metadata, sealedKeys };
    });
  }
}

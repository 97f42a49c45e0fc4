import type { Knex } from 'knex';
import { batchedPerItem } from '../db/batch.js';
import type { Db } from '../db/knex.js';
import type { NotificationEvent, NotifyEvent } from '@hush/queue';

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
  /** Who read the secret, when the reader was known: an account, or `verified address` (a one-time code). */
  receivedBy: string | null;
  /** Only its recipient could read it (recipient_only). */
  recipientOnly: boolean;
  /** Openings refused to someone who was not its recipient. */
  refusedAttempts: number;
  burnedAt: Date | null;
  /** The label of the request this secret answered (null: shared, not requested). */
  requestLabel: string | null;
  /** The events its creator asked to be told about by e-mail (empty: none). */
  notifyOn: NotifyEvent[];
  /** What the mailer reported of each notification sent so far. */
  notifyStatus: Partial<Record<NotificationEvent, 'sent' | 'failed'>>;
  secretExpiresAt: Date;
  expiresAt: Date;
  delivery: { status: 'queued' | 'sent' | 'failed'; updatedAt: Date; reason: string | null } | null;
  /** Encrypted by its creator's client, the key in the link's fragment (docs/zero-knowledge.md). */
  zeroKnowledge: boolean;
  /** The size of its attached file as stored (encrypted); null: none. */
  fileBytes: number | null;
}

export interface NewSecret {
  metadataHash: Buffer;
  metadataShortkey: string;
  secretHash: Buffer;
  custid: string;
  ttl: number;
  passphraseHash: string | null;
  recipientObfuscated: string | null;
  /**
   * The e-mail request for the recipient, written in the same statement (transactional outbox),
   * with the share's trace when the service traces.
   */
  outbox: { id: string; payloadSealed: Buffer; traceContext?: string | undefined } | null;
  secretKeySealed: Buffer;
  metadataKeySealed: Buffer | null;
  /** `viewed` when the dialect shows a generated secret as viewed at once (Onetime Secret classic). */
  state: 'new' | 'viewed';
  anonymous: boolean;
  shareDomain: string | null;
  ciphertext: Buffer;
  /** Only this account may read the secret (an answer to its request); null: whoever holds the link. */
  readerCustid?: string | null;
  requestLabel?: string | null;
  /** The address a recipient-only secret is for, sealed under its secret key (SecretCrypto.sealRecipient); null: anyone with the link. */
  recipientSealed?: Buffer | null;
  /** What a handed-over credential is, sealed under its secret key (SecretCrypto.sealHandover); null: an ordinary secret. */
  handoverSealed?: Buffer | null;
  /** The events its creator is told about, and where to (sealed, see SecretCrypto.sealNotify); null: none. */
  notify?: { on: readonly NotifyEvent[]; sealed: Buffer } | null;
  /** A zero-knowledge secret (its ciphertext is the client's envelope): what a read must prove; null: encrypted here. */
  zk?: NewZkSecret | null;
}

/** What a zero-knowledge secret stores besides its envelope (docs/zero-knowledge.md). */
export interface NewZkSecret {
  /** SHA-256 of the key proof. */
  keyVerifier: Buffer;
  /** SHA-256 of the passphrase proof; null: no passphrase. */
  passphraseVerifier: Buffer | null;
  /** The key wrapped for a requester's public key (an answer to a zero-knowledge request); null otherwise. */
  wrappedKey: Buffer | null;
  /** The size of the attached file as stored; null: none. */
  fileBytes: number | null;
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
  received_by: string | null;
  recipient_only: boolean;
  refused_attempts: number;
  burned_at: Date | null;
  request_label: string | null;
  notify_on: NotifyEvent[] | null;
  notify_status: Partial<Record<NotificationEvent, 'sent' | 'failed'>> | null;
  secret_expires_at: Date;
  expires_at: Date;
  delivery_status: 'queued' | 'sent' | 'failed' | null;
  delivery_updated_at: Date | null;
  delivery_reason: string | null;
  zero_knowledge: boolean;
  file_bytes: string | null;
};

const METADATA_COLUMNS = `id, metadata_hash, metadata_shortkey, custid, state, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
  metadata_key_sealed, anonymous, share_domain, created_at, updated_at, received_at, received_by, recipient_only, refused_attempts, burned_at, request_label, notify_on, notify_status, secret_expires_at, expires_at, delivery_status, delivery_updated_at, delivery_reason, zero_knowledge, file_bytes`;

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
  receivedBy: r.received_by,
  recipientOnly: r.recipient_only,
  refusedAttempts: r.refused_attempts,
  burnedAt: r.burned_at,
  requestLabel: r.request_label,
  notifyOn: r.notify_on ?? [],
  notifyStatus: r.notify_status ?? {},
  secretExpiresAt: r.secret_expires_at,
  expiresAt: r.expires_at,
  delivery: r.delivery_status ? { status: r.delivery_status, updatedAt: r.delivery_updated_at as Date, reason: r.delivery_reason } : null,
  zeroKnowledge: r.zero_knowledge,
  fileBytes: r.file_bytes === null ? null : Number(r.file_bytes),
});

/**
 * A CTE that writes the creator's `event` notification to the outbox for each metadata row of
 * `from` (which returns metadata_hash, notify_on, notify_sealed, expires_at) that asked for it:
 * part of the statement that makes the event happen, so the e-mail is owed exactly when the event
 * is, and nothing is lost if the process dies after it. A row that asked for nothing inserts
 * nothing; the statement costs no extra round trip either way. The row lives as long as the receipt.
 */
const NOTIFY = (from: string, event: NotifyEvent) => `
  INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at, notify_event)
  SELECT gen_random_uuid(), ${from}.metadata_hash, ${from}.notify_sealed, ${from}.expires_at, '${event}'
  FROM ${from} WHERE ${from}.notify_sealed IS NOT NULL AND '${event}' = ANY(${from}.notify_on)`;

/** What NOTIFY reads of a metadata row (qualified for an UPDATE ... FROM's RETURNING). */
const NOTIFY_COLUMNS = 'metadata.metadata_hash, metadata.notify_on, metadata.notify_sealed, metadata.expires_at';

/**
 * THE one-time read, for every claim of one event-loop turn: a single DELETE ... RETURNING that
 * also marks the metadata received. A row is deleted (and returned) by one statement only, so a
 * key is revealed at most once whatever the concurrency; an expired row is never returned.
 */
const CLAIM = (condition: string, receivedBy = 'NULL', then = { ctes: '', columns: '' }) => `
  WITH s AS (
    DELETE FROM secrets WHERE ${condition} AND expires_at > now()
    RETURNING secret_hash, metadata_hash, ciphertext
  ), m AS (
    UPDATE metadata SET state = 'received', received_at = now(), received_by = ${receivedBy}, updated_at = now(), secret_key_sealed = NULL
    FROM s WHERE metadata.metadata_hash = s.metadata_hash
    RETURNING ${NOTIFY_COLUMNS}
  ), n AS (${NOTIFY('m', 'revealed')})${then.ctes}
  SELECT s.secret_hash, s.ciphertext${then.columns} FROM s`;
// A secret bound to one reader (an account, or a recipient's address) is never claimed by the batched, anonymous path.
// A zero-knowledge secret (key_verifier) is claimed only by its own statement, with the proof of its key (CLAIM_ZK).
const CLAIM_PLAIN = CLAIM('secret_hash = ANY(?::bytea[]) AND reader_custid IS NULL AND recipient_sealed IS NULL AND passphrase_hash IS NULL AND key_verifier IS NULL');
const CLAIM_ANY = CLAIM('secret_hash = ANY(?::bytea[]) AND reader_custid IS NULL AND recipient_sealed IS NULL AND key_verifier IS NULL');
// ...but by its reader alone, who is recorded on the metadata (bindings: hash, reader, reader).
const CLAIM_AS_READER_PLAIN = CLAIM('secret_hash = ? AND reader_custid = ? AND passphrase_hash IS NULL AND key_verifier IS NULL', '?::text');
const CLAIM_AS_READER_ANY = CLAIM('secret_hash = ? AND reader_custid = ? AND key_verifier IS NULL', '?::text');
// ...and a recipient-only secret by its recipient, once checked (bindings: hash, who read it).
const CLAIM_AS_RECIPIENT_PLAIN = CLAIM('secret_hash = ? AND recipient_sealed IS NOT NULL AND passphrase_hash IS NULL AND key_verifier IS NULL', '?::text');
const CLAIM_AS_RECIPIENT_ANY = CLAIM('secret_hash = ? AND recipient_sealed IS NOT NULL AND key_verifier IS NULL', '?::text');
/**
 * The one-time read of a zero-knowledge secret, once its key proof (and passphrase proof, unless
 * it has none) checked out: as CLAIM, bound to the verifier that was checked, and in the same
 * statement its file (if any) is handed over to a download token (bindings: hash, key verifier,
 * who read it, download token hash, seconds the download stays possible).
 */
const CLAIM_ZK = (withoutPassphrase: boolean) =>
  CLAIM(`secret_hash = ? AND key_verifier = ?${withoutPassphrase ? ' AND passphrase_verifier IS NULL' : ''}`, '?::text', {
    ctes: `, f AS (
    UPDATE zk_files SET secret_hash = NULL, download_hash = ?, expires_at = now() + make_interval(secs => ?)
    FROM s WHERE zk_files.secret_hash = s.secret_hash RETURNING zk_files.bytes
  )`,
    columns: ', (SELECT bytes FROM f) AS file_bytes',
  });
const CLAIM_ZK_PLAIN = CLAIM_ZK(true);
const CLAIM_ZK_ANY = CLAIM_ZK(false);
/**
 * The zero-knowledge reads of one event-loop turn that need nothing but the key (no passphrase, no
 * reader, no recipient), in ONE statement: each row is claimed only where the SHA-256 of its
 * reader's proof equals its key verifier, and its file handed to that reader's download token
 * (bindings: hashes, proof digests, download token hashes, seconds the download stays possible).
 * A read this claims nothing for (a wrong key, a passphrase, a reader, a recipient, gone) takes
 * the checked path (peekZk, CLAIM_ZK), which says why.
 */
const CLAIM_ZK_KEY_ONLY = `
  WITH i AS (
    SELECT * FROM unnest(?::bytea[], ?::bytea[], ?::bytea[]) AS i(secret_hash, key_verifier, download_hash)
  ), s AS (
    DELETE FROM secrets USING i
    WHERE secrets.secret_hash = i.secret_hash AND secrets.key_verifier = i.key_verifier AND secrets.expires_at > now()
      AND secrets.passphrase_verifier IS NULL AND secrets.reader_custid IS NULL AND secrets.recipient_sealed IS NULL
    RETURNING secrets.secret_hash, secrets.metadata_hash, secrets.ciphertext, i.download_hash
  ), m AS (
    UPDATE metadata SET state = 'received', received_at = now(), received_by = NULL, updated_at = now(), secret_key_sealed = NULL
    FROM s WHERE metadata.metadata_hash = s.metadata_hash
    RETURNING ${NOTIFY_COLUMNS}
  ), n AS (${NOTIFY('m', 'revealed')}), f AS (
    UPDATE zk_files SET secret_hash = NULL, download_hash = s.download_hash, expires_at = now() + make_interval(secs => ?)
    FROM s WHERE zk_files.secret_hash = s.secret_hash RETURNING s.secret_hash, zk_files.bytes
  )
  SELECT s.secret_hash, s.ciphertext, f.bytes AS file_bytes FROM s LEFT JOIN f ON f.secret_hash = s.secret_hash`;

/**
 * Metadata, secret and (with a recipient) outbox row of every share of one event-loop turn, in
 * ONE statement: all the rows of a share exist, or none (and when the statement fails, each share
 * is retried alone, see db/batch.ts). Times come from the database clock.
 */
const INSERT = (gate?: string) => `
  WITH ${gate ? `gate AS (${gate}), ` : ''}input AS (
    SELECT * FROM unnest(?::bytea[], ?::text[], ?::text[], ?::int[], ?::bool[], ?::text[], ?::bytea[], ?::uuid[], ?::bytea[], ?::bytea[], ?::bytea[], ?::text[],
                         ?::bytea[], ?::text[], ?::bool[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::bytea[],
                         ?::bytea[], ?::bytea[], ?::bytea[], ?::bigint[], ?::bytea[], ?::text[])
      AS t(metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
           outbox_id, outbox_payload, secret_hash, ciphertext, passphrase_hash, metadata_key_sealed, state, anonymous, share_domain,
           reader_custid, request_label, notify_on, notify_sealed, recipient_sealed,
           key_verifier, passphrase_verifier, wrapped_key, file_bytes, handover_sealed, outbox_trace)
    ${gate ? 'WHERE EXISTS (SELECT 1 FROM gate)' : ''}
  ), m AS (
    INSERT INTO metadata (metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
                          metadata_key_sealed, state, anonymous, share_domain, request_label, notify_on, notify_sealed, recipient_only,
                          zero_knowledge, file_bytes,
                          delivery_id, delivery_status, delivery_updated_at, secret_expires_at, expires_at)
    SELECT metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed,
           metadata_key_sealed, state, anonymous, share_domain, request_label, string_to_array(notify_on, ','), notify_sealed, recipient_sealed IS NOT NULL,
           key_verifier IS NOT NULL, file_bytes,
           outbox_id, CASE WHEN outbox_id IS NULL THEN NULL ELSE 'queued' END, CASE WHEN outbox_id IS NULL THEN NULL ELSE now() END,
           -- The receipt outlives the secret by its ttl (Onetime Secret's 2 x ttl) or RECEIPT_RETENTION, whichever is longer.
           now() + make_interval(secs => ttl), now() + make_interval(secs => ttl + GREATEST(ttl, ?::int))
    FROM input
    RETURNING metadata_hash, secret_expires_at
  ), o AS (
    INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at, trace_context)
    SELECT input.outbox_id, m.metadata_hash, input.outbox_payload, m.secret_expires_at, input.outbox_trace
    FROM input JOIN m ON m.metadata_hash = input.metadata_hash WHERE input.outbox_id IS NOT NULL
  )
  INSERT INTO secrets (secret_hash, metadata_hash, ciphertext, passphrase_hash, reader_custid, recipient_sealed, key_verifier, passphrase_verifier, wrapped_key,
                       handover_sealed, expires_at)
  SELECT input.secret_hash, m.metadata_hash, input.ciphertext, input.passphrase_hash, input.reader_custid, input.recipient_sealed,
         input.key_verifier, input.passphrase_verifier, input.wrapped_key, input.handover_sealed, m.secret_expires_at
  FROM input JOIN m ON m.metadata_hash = input.metadata_hash
  RETURNING secret_hash, created_at`;

/**
 * One statement of each kind out at a time (group commit): the shares (or reads) that arrive while
 * it runs go together in the next, so under load the database sees fewer, larger statements and
 * commits; docs/performance.md has the figures.
 */
const ONE_AT_A_TIME = { maxInFlight: 1 };
const INSERT_SHARES = INSERT();

/** The bindings of INSERT for `items`, in its placeholders' order (after the gate's, if any). */
function insertBindings(items: readonly NewSecret[], receiptRetention: number): readonly Knex.RawBinding[] {
  return [
    items.map((s) => s.metadataHash),
    items.map((s) => s.metadataShortkey),
    items.map((s) => s.custid),
    items.map((s) => s.ttl),
    items.map((s) => s.passphraseHash !== null || (s.zk?.passphraseVerifier ?? null) !== null),
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
    items.map((s) => s.readerCustid ?? null),
    items.map((s) => s.requestLabel ?? null),
    // One text per row (unnest cannot take an array of arrays): the events, comma-separated.
    items.map((s) => (s.notify ? s.notify.on.join(',') : null)),
    items.map((s) => s.notify?.sealed ?? null),
    items.map((s) => s.recipientSealed ?? null),
    items.map((s) => s.zk?.keyVerifier ?? null),
    items.map((s) => s.zk?.passphraseVerifier ?? null),
    items.map((s) => s.zk?.wrappedKey ?? null),
    items.map((s) => s.zk?.fileBytes ?? null),
    items.map((s) => s.handoverSealed ?? null),
    items.map((s) => s.outbox?.traceContext ?? null),
    receiptRetention,
  ] as unknown as readonly Knex.RawBinding[];
}

/** What the reveal needs to know of a live secret before it claims it. */
export interface LiveSecret {
  passphraseRequired: boolean;
  /** The one account that may read it (an answer to its request); null: see recipientSealed. */
  reader: string | null;
  /** A recipient-only secret's address, sealed under its secret key; null: anyone with the link. */
  recipientSealed: Buffer | null;
  /** The creator's custid. */
  sender: string;
  /** Encrypted by its creator's client: read only with the proof of its key (claimZk). */
  zeroKnowledge: boolean;
  /** What a handed-over credential is, sealed under its secret key; null: an ordinary secret. */
  handoverSealed: Buffer | null;
}

/** What the read of a zero-knowledge secret checks before it claims it. */
export interface LiveZkSecret extends LiveSecret {
  keyVerifier: Buffer;
  passphraseVerifier: Buffer | null;
  wrappedKey: Buffer | null;
  /** Its attached file's size as stored; null: none. */
  fileBytes: number | null;
  expiresAt: Date;
}

export interface SecretsStorageSettings {
  /** Seconds a receipt (metadata) is kept at least after its secret's lifetime ends (RECEIPT_RETENTION). */
  receiptRetention: number;
}

export class SecretsRepository {
  constructor(
    private readonly db: Db,
    private readonly settings: SecretsStorageSettings,
  ) {}

  /** Metadata and secret in one statement: both rows exist, or neither. Times come from the database clock. */
  insert(s: NewSecret): Promise<{ createdAt: Date }> {
    return this.insertBatched(s);
  }

  private readonly insertBatched = batchedPerItem(async (items: NewSecret[]): Promise<{ createdAt: Date }[]> => {
    const { rows } = await this.db.raw<{ rows: { secret_hash: Buffer; created_at: Date }[] }>(INSERT_SHARES, insertBindings(items, this.settings.receiptRetention));
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

  /**
   * The one-time read of a secret only `reader` may read, as `claim` (one DELETE ... RETURNING),
   * recording the reader on the metadata. Anyone else gets nothing and the secret stays.
   */
  async claimAsReader(secretHash: Buffer, reader: string, withoutPassphrase: boolean): Promise<Buffer | undefined> {
    const { rows } = await this.db.raw<{ rows: { ciphertext: Buffer }[] }>(withoutPassphrase ? CLAIM_AS_READER_PLAIN : CLAIM_AS_READER_ANY, [secretHash, reader, reader]);
    return rows[0]?.ciphertext;
  }

  /**
   * The one-time read of a recipient-only secret, once its recipient is established, as `claim`
   * (one DELETE ... RETURNING), recording `receivedBy` (the account, or `verified address`).
   */
  async claimAsRecipient(secretHash: Buffer, receivedBy: string, withoutPassphrase: boolean): Promise<Buffer | undefined> {
    const { rows } = await this.db.raw<{ rows: { ciphertext: Buffer }[] }>(withoutPassphrase ? CLAIM_AS_RECIPIENT_PLAIN : CLAIM_AS_RECIPIENT_ANY, [secretHash, receivedBy]);
    return rows[0]?.ciphertext;
  }

  /**
   * A live secret with this hash, if any: whether it needs a passphrase, the one account that may
   * read it (null: anyone with the link), the sealed address of a recipient-only secret, and its
   * creator's custid (for the pages that name the sender).
   */
  async peek(secretHash: Buffer): Promise<LiveSecret | undefined> {
    const { rows } = await this.db.raw<{
      rows: { locked: boolean; reader_custid: string | null; recipient_sealed: Buffer | null; custid: string; zk: boolean; handover_sealed: Buffer | null }[];
    }>(
      `SELECT s.passphrase_hash IS NOT NULL OR s.passphrase_verifier IS NOT NULL AS locked, s.reader_custid, s.recipient_sealed, m.custid, s.key_verifier IS NOT NULL AS zk,
              s.handover_sealed
       FROM secrets s JOIN metadata m ON m.metadata_hash = s.metadata_hash
       WHERE s.secret_hash = ? AND s.expires_at > now()`,
      [secretHash],
    );
    const row = rows[0];
    return row
      ? {
          passphraseRequired: Boolean(row.locked),
          reader: row.reader_custid,
          recipientSealed: row.recipient_sealed,
          sender: row.custid,
          zeroKnowledge: row.zk,
          handoverSealed: row.handover_sealed,
        }
      : undefined;
  }

  /** A live zero-knowledge secret with this hash, with its verifiers, wrapped key and file size; undefined for any other. */
  async peekZk(secretHash: Buffer): Promise<LiveZkSecret | undefined> {
    const { rows } = await this.db.raw<{
      rows: {
        reader_custid: string | null;
        recipient_sealed: Buffer | null;
        custid: string;
        key_verifier: Buffer;
        passphrase_verifier: Buffer | null;
        wrapped_key: Buffer | null;
        file_bytes: string | null;
        expires_at: Date;
        handover_sealed: Buffer | null;
      }[];
    }>(
      `SELECT s.reader_custid, s.recipient_sealed, m.custid, s.key_verifier, s.passphrase_verifier, s.wrapped_key, f.bytes AS file_bytes, s.expires_at, s.handover_sealed
       FROM secrets s JOIN metadata m ON m.metadata_hash = s.metadata_hash LEFT JOIN zk_files f ON f.secret_hash = s.secret_hash
       WHERE s.secret_hash = ? AND s.expires_at > now() AND s.key_verifier IS NOT NULL`,
      [secretHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      passphraseRequired: row.passphrase_verifier !== null,
      reader: row.reader_custid,
      recipientSealed: row.recipient_sealed,
      sender: row.custid,
      zeroKnowledge: true,
      keyVerifier: row.key_verifier,
      passphraseVerifier: row.passphrase_verifier,
      wrappedKey: row.wrapped_key,
      fileBytes: row.file_bytes === null ? null : Number(row.file_bytes),
      expiresAt: row.expires_at,
      handoverSealed: row.handover_sealed,
    };
  }

  /**
   * THE one-time read of a zero-knowledge secret whose proofs checked out, as `claim` (one
   * DELETE ... RETURNING), bound to the key verifier that was checked, recording `receivedBy`
   * (null: whoever held the link); its file, if any, goes to the download token `downloadHash`
   * for `downloadSeconds`, in the same statement. Undefined: someone else read it first.
   */
  async claimZk(
    secretHash: Buffer,
    keyVerifier: Buffer,
    o: { withoutPassphrase: boolean; receivedBy: string | null; downloadHash: Buffer; downloadSeconds: number },
  ): Promise<{ ciphertext: Buffer; fileBytes: number | null } | undefined> {
    const { rows } = await this.db.raw<{ rows: { ciphertext: Buffer; file_bytes: string | null }[] }>(o.withoutPassphrase ? CLAIM_ZK_PLAIN : CLAIM_ZK_ANY, [
      secretHash,
      keyVerifier,
      o.receivedBy,
      o.downloadHash,
      o.downloadSeconds,
    ]);
    const row = rows[0];
    return row ? { ciphertext: row.ciphertext, fileBytes: row.file_bytes === null ? null : Number(row.file_bytes) } : undefined;
  }

  /**
   * The one-time read of a zero-knowledge secret that asks for nothing but its key, batched with
   * the others of the same event-loop turn (CLAIM_ZK_KEY_ONLY): claimed when `proofDigest` (the
   * SHA-256 of the reader's key proof) is its key verifier. Comparing digests in the statement
   * reveals, at most, how much of a digest the caller chose matches the verifier, and the verifier
   * is itself only a digest: it opens nothing. Undefined: not claimed here (see CLAIM_ZK_KEY_ONLY);
   * of two reads of one key in a batch only the first is tried, the other takes the checked path.
   */
  claimZkKeyOnly(
    secretHash: Buffer,
    proofDigest: Buffer,
    o: { downloadHash: Buffer; downloadSeconds: number },
  ): Promise<{ ciphertext: Buffer; fileBytes: number | null } | undefined> {
    return this.claimKeyOnly({ secretHash, proofDigest, ...o });
  }

  private readonly claimKeyOnly = batchedPerItem(async (items: { secretHash: Buffer; proofDigest: Buffer; downloadHash: Buffer; downloadSeconds: number }[]) => {
    const first = new Map<string, (typeof items)[number]>();
    for (const item of items) if (!first.has(item.secretHash.toString('hex'))) first.set(item.secretHash.toString('hex'), item);
    const tried = [...first.values()].sort((a, b) => Buffer.compare(a.secretHash, b.secretHash)); // one lock order
    const { rows } = await this.db.raw<{ rows: { secret_hash: Buffer; ciphertext: Buffer; file_bytes: string | null }[] }>(CLAIM_ZK_KEY_ONLY, [
      tried.map((t) => t.secretHash),
      tried.map((t) => t.proofDigest),
      tried.map((t) => t.downloadHash),
      items[0]!.downloadSeconds,
    ] as unknown as readonly Knex.RawBinding[]);
    const claimed = new Map(rows.map((r) => [r.secret_hash.toString('hex'), r]));
    return items.map((item) => {
      const key = item.secretHash.toString('hex');
      const row = first.get(key) === item ? claimed.get(key) : undefined;
      return row ? { ciphertext: row.ciphertext, fileBytes: row.file_bytes === null ? null : Number(row.file_bytes) } : undefined;
    });
  }, ONE_AT_A_TIME);

  /**
   * Counts a passphrase-proof attempt of a zero-knowledge secret before the proof is compared, as
   * reserveAttempt does for passphrases: once `max` attempts are reserved, no further one is.
   */
  async reserveZkAttempt(secretHash: Buffer, max: number): Promise<{ passphraseVerifier: Buffer; attempts: number } | undefined> {
    const { rows } = await this.db.raw<{ rows: { passphrase_verifier: Buffer; passphrase_attempts: number }[] }>(
      `UPDATE secrets SET passphrase_attempts = passphrase_attempts + 1
       WHERE secret_hash = ? AND expires_at > now() AND passphrase_verifier IS NOT NULL AND passphrase_attempts < ?
       RETURNING passphrase_verifier, passphrase_attempts`,
      [secretHash, max],
    );
    const row = rows[0];
    return row ? { passphraseVerifier: row.passphrase_verifier, attempts: row.passphrase_attempts } : undefined;
  }

  /**
   * A zero-knowledge share with a file: the upload `file` of `custid` (complete, not yet
   * attached) is attached to the new secret by the same statement that inserts it, for as long
   * as the secret lives; undefined (nothing stored) when there is no such upload.
   */
  async insertWithFile(file: { id: string; custid: string }, s: NewSecret): Promise<{ createdAt: Date } | undefined> {
    const gate = `UPDATE zk_files SET secret_hash = ?, expires_at = now() + make_interval(secs => ?)
      WHERE id = ? AND custid = ? AND complete AND secret_hash IS NULL AND download_hash IS NULL AND expires_at > now() RETURNING id`;
    const { rows } = await this.db.raw<{ rows: { created_at: Date }[] }>(INSERT(gate), [
      s.secretHash,
      s.ttl,
      file.id,
      file.custid,
      ...insertBindings([s], this.settings.receiptRetention),
    ] as unknown as readonly Knex.RawBinding[]);
    return rows[0] ? { createdAt: rows[0].created_at } : undefined;
  }

  /**
   * An opening of a recipient-only secret refused to someone else: counted on its receipt, and, at
   * most once per `intervalSeconds` per secret (a scanner or a forwarded link cannot flood the
   * creator), the creator's `refused` notification written to the outbox by the same statement.
   */
  async refused(secretHash: Buffer, intervalSeconds: number): Promise<void> {
    await this.db.raw(
      `WITH m AS (
         UPDATE metadata SET refused_attempts = refused_attempts + 1, updated_at = now(),
           refused_notified_at = CASE WHEN notify_sealed IS NOT NULL AND (refused_notified_at IS NULL OR refused_notified_at <= now() - make_interval(secs => ?))
                                      THEN now() ELSE refused_notified_at END
         FROM secrets s WHERE s.secret_hash = ? AND metadata.metadata_hash = s.metadata_hash AND s.recipient_sealed IS NOT NULL
         RETURNING metadata.metadata_hash, metadata.notify_sealed, metadata.expires_at, metadata.refused_notified_at = now() AS tell
       )
       INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at, notify_event)
       SELECT gen_random_uuid(), m.metadata_hash, m.notify_sealed, m.expires_at, 'refused' FROM m WHERE m.tell`,
      [intervalSeconds, secretHash],
    );
  }

  /**
   * A secret that answers an open request, in ONE statement with the request's closing: the
   * request row is updated only while `open` and unexpired, and the metadata and secret are
   * inserted only when it was. Of two concurrent answers, the second waits for the first's row
   * lock, then finds the request no longer open and stores nothing. Undefined: the request was
   * not open.
   */
  async insertAnswer(requestHash: Buffer, s: NewSecret): Promise<{ createdAt: Date } | undefined> {
    const gate = `UPDATE secret_requests SET state = 'fulfilled', fulfilled_at = now(), metadata_hash = ?
      WHERE request_hash = ? AND custid = ? AND state = 'open' AND expires_at > now() RETURNING id`;
    const { rows } = await this.db.raw<{ rows: { created_at: Date }[] }>(INSERT(gate), [
      s.metadataHash,
      requestHash,
      s.custid,
      ...insertBindings([s], this.settings.receiptRetention),
    ] as unknown as readonly Knex.RawBinding[]);
    return rows[0] ? { createdAt: rows[0].created_at } : undefined;
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
      `WITH s AS (DELETE FROM secrets WHERE secret_hash = ? RETURNING metadata_hash),
       m AS (UPDATE metadata SET state = 'burned', burned_at = now(), updated_at = now(), secret_key_sealed = NULL
             FROM s WHERE metadata.metadata_hash = s.metadata_hash RETURNING ${NOTIFY_COLUMNS})
       ${NOTIFY('m', 'burned')}`,
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
       ), m AS (
         UPDATE metadata SET state = 'burned', burned_at = now(), updated_at = now(), secret_key_sealed = NULL
         FROM s WHERE metadata.metadata_hash = s.metadata_hash
         RETURNING ${METADATA_COLUMNS.split(',')
           .map((c) => `metadata.${c.trim()}`)
           .join(', ')}, metadata.notify_sealed
       ), n AS (${NOTIFY('m', 'burned')})
       SELECT * FROM m`,
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
}

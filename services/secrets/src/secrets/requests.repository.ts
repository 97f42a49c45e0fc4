import type { Db } from '../db/knex.js';
import type { PassphrasePolicy } from '../http/secrets-params.js';

/** A secret request as its use-cases see it (hashes and sealed blobs stay opaque). */
export interface RequestRecord {
  id: string;
  requestHash: Buffer;
  custid: string;
  label: string;
  passphrasePolicy: PassphrasePolicy;
  secretTtl: number;
  requestKeySealed: Buffer;
  recipient: string | null;
  state: 'open' | 'fulfilled' | 'cancelled';
  createdAt: Date;
  expiresAt: Date;
  fulfilledAt: Date | null;
  cancelledAt: Date | null;
  /** A zero-knowledge request's public key (ECDH P-256, uncompressed); null: answers are encrypted here. */
  publicKey: Buffer | null;
}

export interface NewRequest {
  id: string;
  requestHash: Buffer;
  custid: string;
  label: string;
  passphrasePolicy: PassphrasePolicy;
  secretTtl: number;
  ttl: number;
  requestKeySealed: Buffer;
  recipientObfuscated: string | null;
  recipientSealed: Buffer | null;
  /** The e-mail to the person asked, written in the same statement (transactional outbox). */
  outbox?: { id: string; payloadSealed: Buffer } | null;
  publicKey?: Buffer | null;
}

type Row = {
  id: string;
  request_hash: Buffer;
  custid: string;
  label: string;
  passphrase_policy: PassphrasePolicy;
  secret_ttl: number;
  request_key_sealed: Buffer;
  recipient_obfuscated: string | null;
  state: RequestRecord['state'];
  created_at: Date;
  expires_at: Date;
  fulfilled_at: Date | null;
  cancelled_at: Date | null;
  public_key: Buffer | null;
};

const COLUMNS = [
  'id',
  'request_hash',
  'custid',
  'label',
  'passphrase_policy',
  'secret_ttl',
  'request_key_sealed',
  'recipient_obfuscated',
  'state',
  'created_at',
  'expires_at',
  'fulfilled_at',
  'cancelled_at',
  'public_key',
];

const toRecord = (r: Row): RequestRecord => ({
  id: r.id,
  requestHash: r.request_hash,
  custid: r.custid,
  label: r.label,
  passphrasePolicy: r.passphrase_policy,
  secretTtl: r.secret_ttl,
  requestKeySealed: r.request_key_sealed,
  recipient: r.recipient_obfuscated,
  state: r.state,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  fulfilledAt: r.fulfilled_at,
  cancelledAt: r.cancelled_at,
  publicKey: r.public_key,
});

/**
 * Secret requests. The answer's row and the request's closing are one statement
 * (SecretsRepository.insertAnswer); this holds the rest. Times come from the database clock.
 */
export class RequestsRepository {
  constructor(private readonly db: Db) {}

  /** The request and, when it names someone, the e-mail to them (due until the link closes), in ONE statement. */
  async insert(r: NewRequest): Promise<RequestRecord> {
    const { rows } = await this.db.raw<{ rows: Row[] }>(
      `WITH r AS (
         INSERT INTO secret_requests (id, request_hash, custid, label, passphrase_policy, secret_ttl, request_key_sealed, recipient_obfuscated, recipient_sealed, public_key, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?))
         RETURNING ${COLUMNS.join(', ')}
       ), o AS (
         INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at)
         SELECT ?::uuid, NULL, ?::bytea, r.expires_at FROM r WHERE ?::uuid IS NOT NULL
       )
       SELECT * FROM r`,
      [
        r.id,
        r.requestHash,
        r.custid,
        r.label,
        r.passphrasePolicy,
        r.secretTtl,
        r.requestKeySealed,
        r.recipientObfuscated,
        r.recipientSealed,
        r.publicKey ?? null,
        r.ttl,
        r.outbox?.id ?? null,
        r.outbox?.payloadSealed ?? null,
        r.outbox?.id ?? null,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('the request was not stored');
    return toRecord(row);
  }

  /** An open request whose link has not expired, by its key's hash. */
  async findOpen(requestHash: Buffer): Promise<RequestRecord | undefined> {
    const row = await this.db('secret_requests').select<Row[]>(COLUMNS).where({ request_hash: requestHash, state: 'open' }).andWhereRaw('expires_at > now()').first();
    return row && toRecord(row);
  }

  /** The account's requests, newest first (closed ones until the sweeper removes them). */
  async list(custid: string, limit: number): Promise<RequestRecord[]> {
    const rows = await this.db('secret_requests').select<Row[]>(COLUMNS).where({ custid }).orderBy('created_at', 'desc').limit(limit);
    return rows.map(toRecord);
  }

  /** Closes one of the account's open, unexpired requests; undefined when there was none. */
  async cancel(id: string, custid: string): Promise<RequestRecord | undefined> {
    const [row] = await this.db('secret_requests')
      .update({ state: 'cancelled', cancelled_at: this.db.fn.now() })
      .where({ id, custid, state: 'open' })
      .andWhereRaw('expires_at > now()')
      .returning<Row[]>(COLUMNS);
    return row && toRecord(row);
  }
}

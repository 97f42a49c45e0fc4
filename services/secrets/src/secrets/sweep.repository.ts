import type { Db } from '../db/knex.js';

/**
 * The sweeper's statements: each deletes at most `limit` rows of what has expired, oldest first,
 * in one short statement of its own, through an index on the expiry, skipping rows another
 * transaction holds (a reveal, a burn, another replica's sweep: FOR UPDATE SKIP LOCKED), so it
 * never waits on a share or a read and two replicas take disjoint rows. The rows chosen are then
 * deleted by their physical address (`ctid = ANY(ARRAY(...))`, a TID scan): as `IN (SELECT ...)`
 * the planner may join them to the whole table, read end to end for a thousand rows. The sweeper
 * (sweeper.ts) repeats each until a batch comes back short. Reads never depend on it: every
 * statement that reads a secret or a receipt checks its expiry itself.
 */
export class SweepRepository {
  constructor(private readonly db: Db) {}

  /**
   * Secrets past their TTL, never read: deleted; their receipts' sealed copy of the secret key
   * cleared; the creator's `expired` notification written to the outbox, by the same statement.
   */
  async expireSecrets(limit: number): Promise<{ secrets: number; sealedKeys: number }> {
    const { rows } = await this.db.raw<{ rows: { secrets: number; sealed_keys: number }[] }>(
      `WITH s AS (
         DELETE FROM secrets WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM secrets WHERE expires_at <= now() ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))
         RETURNING metadata_hash
       ), m AS (
         UPDATE metadata SET secret_key_sealed = NULL FROM s WHERE metadata.metadata_hash = s.metadata_hash
         RETURNING metadata.metadata_hash, metadata.notify_on, metadata.notify_sealed, metadata.expires_at
       ), n AS (
         INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at, notify_event)
         SELECT gen_random_uuid(), m.metadata_hash, m.notify_sealed, m.expires_at, 'expired'
         FROM m WHERE m.notify_sealed IS NOT NULL AND 'expired' = ANY(m.notify_on)
       )
       SELECT (SELECT count(*) FROM s)::int AS secrets, (SELECT count(*) FROM m)::int AS sealed_keys`,
      [limit],
    );
    return { secrets: rows[0]?.secrets ?? 0, sealedKeys: rows[0]?.sealed_keys ?? 0 };
  }

  /**
   * E-mail requests whose secret (or link) expired before they were delivered: deleted (they hold
   * the address and the link), and a delivery still `queued` on their receipt marked failed, since
   * it will never happen.
   */
  async expireOutbox(limit: number): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { n: number }[] }>(
      `WITH o AS (
         DELETE FROM outbox WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM outbox WHERE expires_at <= now() ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))
         RETURNING metadata_hash
       ), m AS (
         UPDATE metadata SET delivery_status = 'failed', delivery_updated_at = now(),
           delivery_reason = 'the secret expired before the e-mail was delivered'
         FROM o WHERE metadata.metadata_hash = o.metadata_hash AND metadata.delivery_status = 'queued'
       )
       SELECT count(*)::int AS n FROM o`,
      [limit],
    );
    return rows[0]?.n ?? 0;
  }

  /** Receipts past their retention: deleted (with whatever still hangs on them). */
  async deleteReceipts(limit: number): Promise<number> {
    const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
      `DELETE FROM metadata WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM metadata WHERE expires_at <= now() ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))`,
      [limit],
    );
    return rowCount ?? 0;
  }

  /**
   * Secret requests `retentionSeconds` after their link closed (answered, cancelled or expired,
   * whichever came first): listed to their owner, like a receipt, until then. The moment it closed
   * is the expression the index secret_requests_closed holds.
   */
  async deleteRequests(limit: number, retentionSeconds: number): Promise<number> {
    const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
      `DELETE FROM secret_requests WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM secret_requests
         WHERE LEAST(expires_at, COALESCE(fulfilled_at, cancelled_at, expires_at)) <= now() - make_interval(secs => ?)
         ORDER BY LEAST(expires_at, COALESCE(fulfilled_at, cancelled_at, expires_at)) LIMIT ? FOR UPDATE SKIP LOCKED))`,
      [retentionSeconds, limit],
    );
    return rowCount ?? 0;
  }

  /** Zero-knowledge files no longer wanted, once expired: uploads never attached, downloads never completed (attached ones go with their secret). */
  async deleteFiles(limit: number): Promise<number> {
    const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
      `DELETE FROM zk_files WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM zk_files WHERE secret_hash IS NULL AND expires_at <= now() ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))`,
      [limit],
    );
    return rowCount ?? 0;
  }
}

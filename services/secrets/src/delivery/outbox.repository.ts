import type { NotificationEvent } from '@hush/queue';
import type { Db } from '../db/knex.js';

export interface OutboxRow {
  id: string;
  payloadSealed: Buffer;
  /** Dispatch attempts before this one. */
  attempts: number;
  /** When the row was first handed to the queue; null until then (and always, inline). */
  queuedAt: Date | null;
  /** Times its job was found gone from the queue and added again. */
  requeues: number;
  /** The W3C `traceparent` of the request that wrote the row; null when it was not traced. */
  traceContext: string | null;
  /** A creator's notification: the event, with the metadata its payload is bound to and when it happened. */
  notify: { event: NotificationEvent; metadataHash: Buffer; at: Date } | null;
}

type LeasedRow = {
  id: string;
  payload_sealed: Buffer;
  attempts: number;
  queued_at: Date | null;
  requeues: number;
  notify_event: NotificationEvent | null;
  /** Null for a secret request's e-mail (never a notification). */
  metadata_hash: Buffer | null;
  created_at: Date;
  trace_context: string | null;
};

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes up to `limit` due rows for `leaseSeconds`: one statement pushes their next attempt past
   * the lease (SKIP LOCKED, so every replica may relay at once without taking the same row) and
   * counts the attempt. A row whose dispatcher dies is simply due again when the lease ends; no
   * transaction stays open while Redis or SMTP is called.
   */
  async lease(limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
    const { rows } = await this.db.raw<{ rows: LeasedRow[] }>(
      `UPDATE outbox SET next_attempt_at = now() + make_interval(secs => ?), attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM outbox WHERE next_attempt_at <= now() AND expires_at > now()
         ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
       )
       RETURNING id, payload_sealed, attempts - 1 AS attempts, queued_at, requeues, notify_event, metadata_hash, created_at, trace_context`,
      [leaseSeconds, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      payloadSealed: r.payload_sealed,
      attempts: r.attempts,
      queuedAt: r.queued_at,
      requeues: r.requeues,
      traceContext: r.trace_context,
      notify: r.notify_event && r.metadata_hash ? { event: r.notify_event, metadataHash: r.metadata_hash, at: r.created_at } : null,
    }));
  }

  /** The outcome is known (sent or failed): the row, with the address and link, is gone. */
  async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.db.raw(`DELETE FROM outbox WHERE id = ANY(?::uuid[])`, [ids]);
  }

  /**
   * Handed to the queue (first time, or again after its job was lost): the row stays, due again in
   * `checkAfterSeconds` for the reconciler to see whether its job still exists. A row already
   * removed (the outcome arrived first) stays removed.
   */
  async markQueued(id: string, checkAfterSeconds: number, requeued: boolean): Promise<void> {
    await this.db.raw(
      `UPDATE outbox SET queued_at = COALESCE(queued_at, now()), requeues = requeues + ?,
         next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?::uuid`,
      [requeued ? 1 : 0, checkAfterSeconds, id],
    );
  }

  /** Whether the row is still there (no outcome recorded since it was leased). */
  async exists(id: string): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(`SELECT 1 FROM outbox WHERE id = ?::uuid`, [id]);
    return rows.length > 0;
  }

  async retryIn(id: string, seconds: number): Promise<void> {
    await this.db.raw(`UPDATE outbox SET next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?::uuid`, [seconds, id]);
  }

  /**
   * What the mailer reported (or the relay decided); `sent` is final (a late `failed` from an
   * earlier attempt never overrides it). Either outcome ends the delivery: its outbox row, the
   * last copy of the address, is deleted in the same statement. A creator's notification records
   * its outcome under its event on the metadata, while its row is still there (the first outcome).
   */
  async recordDelivery(deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: { updated: number }[] }>(
      `WITH gone AS (DELETE FROM outbox WHERE id = ?::uuid RETURNING metadata_hash, notify_event),
       m AS (UPDATE metadata SET delivery_status = ?, delivery_updated_at = ?, delivery_reason = ?
             WHERE delivery_id = ?::uuid AND delivery_status IS DISTINCT FROM 'sent' RETURNING 1),
       n AS (UPDATE metadata SET notify_status = COALESCE(notify_status, '{}'::jsonb) || jsonb_build_object(gone.notify_event, ?::text)
             FROM gone WHERE metadata.metadata_hash = gone.metadata_hash AND gone.notify_event IS NOT NULL RETURNING 1)
       SELECT (SELECT count(*) FROM m)::int + (SELECT count(*) FROM n)::int AS updated`,
      [deliveryId, status, at, reason ?? null, deliveryId, status],
    );
    return (rows[0]?.updated ?? 0) > 0;
  }

  /** Rows not yet handed to the queue (grows while Redis is down). */
  async pending(): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM outbox WHERE queued_at IS NULL`);
    return rows[0]?.n ?? 0;
  }
}

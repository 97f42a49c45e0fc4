import type { OutboxRowBase, Outbox } from '@hush/delivery';
import type { Db } from '../db/index.js';

export interface OutboxRow extends OutboxRowBase {
  payloadSealed: Buffer;
}

type LeasedRow = { id: string; payload_sealed: Buffer; attempts: number; queued_at: Date | null; requeues: number; trace_context: string | null };

/**
 * Identity's mail outbox, as the relay (packages/delivery) uses it: rows are written with their
 * action token (action-tokens.repository.ts) and leave once the outcome is recorded on that token,
 * or when the link has expired (they are no longer leased; the sweep deletes them with the token).
 */
export class OutboxRepository implements Outbox<OutboxRow> {
  constructor(private readonly db: Db) {}

  /** Takes up to `limit` due rows for `leaseSeconds` in one statement (SKIP LOCKED: replicas relay side by side), counting the attempt. */
  async lease(limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
    const { rows } = await this.db.raw<{ rows: LeasedRow[] }>(
      `UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ?), attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM mail_outbox WHERE next_attempt_at <= now() AND expires_at > now()
         ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
       )
       RETURNING id, payload_sealed, attempts - 1 AS attempts, queued_at, requeues, trace_context`,
      [leaseSeconds, limit],
    );
    return rows.map((r) => ({ id: r.id, payloadSealed: r.payload_sealed, attempts: r.attempts, queuedAt: r.queued_at, requeues: r.requeues, traceContext: r.trace_context }));
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.db.raw(`DELETE FROM mail_outbox WHERE id = ANY(?::uuid[])`, [ids]);
  }

  async markQueued(id: string, checkAfterSeconds: number, requeued: boolean): Promise<void> {
    await this.db.raw(
      `UPDATE mail_outbox SET queued_at = COALESCE(queued_at, now()), requeues = requeues + ?,
         next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?::uuid`,
      [requeued ? 1 : 0, checkAfterSeconds, id],
    );
  }

  async exists(id: string): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(`SELECT 1 FROM mail_outbox WHERE id = ?::uuid`, [id]);
    return rows.length > 0;
  }

  async retryIn(id: string, seconds: number): Promise<void> {
    await this.db.raw(`UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?::uuid`, [seconds, id]);
  }

  /**
   * The outcome (mailer's report, or the relay's verdict), recorded on the token in the statement
   * that deletes the row, the last copy of the address and link; `sent` is never overridden.
   */
  async recordDelivery(deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(
      `WITH gone AS (DELETE FROM mail_outbox WHERE id = ?::uuid RETURNING token_id)
       UPDATE action_tokens SET delivery_status = ?, delivery_updated_at = ?, delivery_reason = ?
       FROM gone WHERE action_tokens.id = gone.token_id AND action_tokens.delivery_status IS DISTINCT FROM 'sent'
       RETURNING 1`,
      [deliveryId, status, at, reason ?? null],
    );
    return rows.length > 0;
  }

  /** Rows not yet handed to the queue (grows while Redis is down). */
  async pending(): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM mail_outbox WHERE queued_at IS NULL`);
    return rows[0]?.n ?? 0;
  }
}

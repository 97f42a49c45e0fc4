import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';

export interface OutboxRow {
  id: string;
  payloadSealed: Buffer;
  attempts: number;
}

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  /**
   * Runs `relay` on up to `limit` due rows, locked for this transaction only (SKIP LOCKED: every
   * replica may relay at once without taking the same row). The rows `relay` returns as done are
   * deleted in the same transaction; the others are postponed by `retryAfterSeconds`.
   */
  async relayDue(limit: number, retryAfterSeconds: number, relay: (rows: OutboxRow[]) => Promise<{ done: string[]; failed: string[] }>): Promise<number> {
    return this.db.transaction(async (trx: Knex.Transaction) => {
      const { rows } = await trx.raw<{ rows: { id: string; payload_sealed: Buffer; attempts: number }[] }>(
        `SELECT id, payload_sealed, attempts FROM outbox
         WHERE next_attempt_at <= now() AND expires_at > now()
         ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (rows.length === 0) return 0;
      const { done, failed } = await relay(rows.map((r) => ({ id: r.id, payloadSealed: r.payload_sealed, attempts: r.attempts })));
      if (done.length) await trx.raw(`DELETE FROM outbox WHERE id = ANY(?::uuid[])`, [done]);
      if (failed.length) {
        await trx.raw(`UPDATE outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?) WHERE id = ANY(?::uuid[])`, [
          retryAfterSeconds,
          failed,
        ]);
      }
      return done.length;
    });
  }

  /** What the mailer reported; `sent` is final (a late `failed` from an earlier attempt never overrides it). */
  async recordDelivery(deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined): Promise<boolean> {
    const { rowCount } = await this.db.raw(
      `UPDATE metadata SET delivery_status = ?, delivery_updated_at = ?, delivery_reason = ?
       WHERE delivery_id = ?::uuid AND delivery_status IS DISTINCT FROM 'sent'`,
      [status, at, reason ?? null, deliveryId],
    );
    return (rowCount ?? 0) > 0;
  }

  async pending(): Promise<number> {
    const { rows } = await this.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM outbox`);
    return rows[0]?.n ?? 0;
  }
}

import type { Db } from '../db/knex.js';

export interface OutboxRow {
  id: string;
  payloadSealed: Buffer;
  /** Dispatch attempts before this one. */
  attempts: number;
}

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes up to `limit` due rows for `leaseSeconds`: one statement pushes their next attempt past
   * the lease (SKIP LOCKED, so every replica may relay at once without taking the same row) and
   * counts the attempt. A row whose dispatcher dies is simply due again when the lease ends; no
   * transaction stays open while Redis or SMTP is called.
   */
  async lease(limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
    const { rows } = await this.db.raw<{ rows: { id: string; payload_sealed: Buffer; attempts: number }[] }>(
      `UPDATE outbox SET next_attempt_at = now() + make_interval(secs => ?), attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM outbox WHERE next_attempt_at <= now() AND expires_at > now()
         ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
       )
       RETURNING id, payload_sealed, attempts - 1 AS attempts`,
      [leaseSeconds, limit],
    );
    return rows.map((r) => ({ id: r.id, payloadSealed: r.payload_sealed, attempts: r.attempts }));
  }

  /** Dispatched (queued, or sent inline): the row, with the address and link, is gone. */
  async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.db.raw(`DELETE FROM outbox WHERE id = ANY(?::uuid[])`, [ids]);
  }

  async retryIn(id: string, seconds: number): Promise<void> {
    await this.db.raw(`UPDATE outbox SET next_attempt_at = now() + make_interval(secs => ?) WHERE id = ?::uuid`, [seconds, id]);
  }

  /** What the mailer reported; `sent` is final (a late `failed` from an earlier attempt never overrides it). */
  async recordDelivery(deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined): Promise<boolean> {
    const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
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

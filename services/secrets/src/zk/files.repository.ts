import type { Db } from '../db/knex.js';

/**
 * The encrypted records of zero-knowledge files (docs/zero-knowledge.md), in pieces of at most
 * one record each (`zk_file_records`), so that neither an upload nor a download ever holds a
 * whole file in memory. A file's life: uploaded by an account (pending, `expires_at` soon),
 * attached to the secret of a share (SecretsRepository.insertWithFile: deleted with it), handed
 * to its reader's download token by the one-time read (SecretsRepository.claimZk), then deleted
 * once downloaded or expired. Times come from the database clock.
 */
export class ZkFilesRepository {
  constructor(private readonly db: Db) {}

  /**
   * A new, empty upload of `custid`, unless the account already has `maxPending` uploads neither
   * attached nor expired (the check and the insert are one statement; two racing uploads may both
   * pass it, which the limit tolerates).
   */
  async create(id: string, custid: string, o: { expiresSeconds: number; maxPending: number }): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(
      `INSERT INTO zk_files (id, custid, expires_at)
       SELECT ?, ?, now() + make_interval(secs => ?)
       WHERE (SELECT count(*) FROM zk_files WHERE custid = ? AND secret_hash IS NULL AND download_hash IS NULL AND expires_at > now()) < ?
       RETURNING id`,
      [id, custid, o.expiresSeconds, custid, o.maxPending],
    );
    return rows.length > 0;
  }

  /**
   * Appends pieces `first`, `first + 1`... of an upload, in one statement. Each piece is its own
   * parameter: the driver sends a Buffer parameter as it is, where an array of them would be
   * written out in hex (twice the bytes, as strings, per piece).
   */
  async append(id: string, first: number, pieces: readonly Buffer[]): Promise<void> {
    const rows = pieces.map(() => '(?, ?, ?)').join(', ');
    await this.db.raw(
      `INSERT INTO zk_file_records (file_id, seq, data) VALUES ${rows}`,
      pieces.flatMap((piece, i) => [id, first + i, piece]),
    );
  }

  /** The upload is whole: `bytes` long, ready to be attached by a share. */
  async complete(id: string, bytes: number): Promise<void> {
    await this.db.raw(`UPDATE zk_files SET complete = true, bytes = ? WHERE id = ?`, [bytes, id]);
  }

  /** The size of an upload of `custid` that a share may attach (complete, not attached, not expired). */
  async attachable(id: string, custid: string): Promise<number | undefined> {
    const { rows } = await this.db.raw<{ rows: { bytes: string }[] }>(
      `SELECT bytes FROM zk_files WHERE id = ? AND custid = ? AND complete AND secret_hash IS NULL AND download_hash IS NULL AND expires_at > now()`,
      [id, custid],
    );
    return rows[0] ? Number(rows[0].bytes) : undefined;
  }

  /** Deletes a file and its records (an upload that failed, a download that completed). */
  async remove(id: string): Promise<void> {
    await this.db.raw(`DELETE FROM zk_files WHERE id = ?`, [id]);
  }

  /** The file a download token opens, while it may be downloaded. */
  async forDownload(downloadHash: Buffer): Promise<{ id: string; bytes: number } | undefined> {
    const { rows } = await this.db.raw<{ rows: { id: string; bytes: string }[] }>(`SELECT id, bytes FROM zk_files WHERE download_hash = ? AND expires_at > now()`, [downloadHash]);
    const row = rows[0];
    return row ? { id: row.id, bytes: Number(row.bytes) } : undefined;
  }

  /** Up to `limit` pieces of a file from piece `from` on, in order. */
  async pieces(id: string, from: number, limit: number): Promise<Buffer[]> {
    const { rows } = await this.db.raw<{ rows: { data: Buffer }[] }>(`SELECT data FROM zk_file_records WHERE file_id = ? AND seq >= ? ORDER BY seq LIMIT ?`, [id, from, limit]);
    return rows.map((r) => r.data);
  }
}

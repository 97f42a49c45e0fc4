import type { Knex } from 'knex';
import { notTaggedWithSql } from './crypto-ring.js';

/**
 * Moving a table's sealed column under the newest key of a ring (crypto-ring.ts), in batches, for
 * the services' `rewrap` commands. Resumable by construction: a scan selects only what is not yet
 * tagged with the newest key, so a run stopped half-way, run again, starts where it stopped. Each
 * row is written back only if it still holds what was read (a row read, revealed or replaced in
 * the meantime is left as the service left it), so a rewrap runs beside live traffic.
 */
export interface RewrapTarget {
  /** `table.column`, for progress and the report. */
  readonly name: string;
  readonly table: string;
  /** A unique, ordered column to page by (the primary key). */
  readonly key: string;
  readonly column: string;
  /** Other columns `rewrap` needs (what the AAD binds to). */
  readonly columns?: readonly string[];
  /** Only these rows: an SQL condition on the table (its own columns only). */
  readonly where?: string;
  /** The sealed value under the newest key; throws when it cannot be moved (then it is counted as left). */
  rewrap(row: Record<string, unknown>, sealed: Buffer): Buffer;
}

export interface RewrapProgress {
  name: string;
  /** Rows moved under the newest key so far. */
  rewrapped: number;
  /** Rows that could not be moved (they still need an older key). */
  left: number;
}

export interface RewrapOptions {
  /** The newest key's id (what tagged ciphertexts carry). */
  newestId: Buffer;
  batchSize: number;
  /** After each batch. */
  onProgress?: (progress: RewrapProgress) => void;
}

/** Rewraps one target to the end of its table; returns what it moved and what it had to leave. */
export async function rewrapTarget(db: Knex, target: RewrapTarget, options: RewrapOptions): Promise<RewrapProgress> {
  const progress: RewrapProgress = { name: target.name, rewrapped: 0, left: 0 };
  const selected = [target.key, target.column, ...(target.columns ?? [])].map((c) => db.raw('??', [c]).toQuery()).join(', ');
  let after: unknown;
  for (;;) {
    const rows = (
      await db.raw<{ rows: Record<string, unknown>[] }>(
        `SELECT ${selected} FROM ?? WHERE ?? IS NOT NULL AND ${notTaggedWithSql(db.raw('??', [target.column]).toQuery())}` +
          `${target.where ? ` AND (${target.where})` : ''}${after === undefined ? '' : ' AND ?? > ?'} ORDER BY ?? LIMIT ?`,
        [target.table, target.column, options.newestId, ...(after === undefined ? [] : [target.key, after as Knex.Value]), target.key, options.batchSize],
      )
    ).rows;
    if (rows.length === 0) return progress;
    after = rows[rows.length - 1]![target.key];
    const moved: { key: unknown; before: Buffer; after: Buffer }[] = [];
    for (const row of rows) {
      const before = row[target.column] as Buffer;
      try {
        moved.push({ key: row[target.key], before, after: target.rewrap(row, before) });
      } catch {
        progress.left++;
      }
    }
    await db.transaction(async (trx) => {
      for (const m of moved) {
        await trx(target.table)
          .where(target.key, m.key as Knex.Value)
          .andWhere(target.column, m.before)
          .update({ [target.column]: m.after });
      }
    });
    progress.rewrapped += moved.length;
    options.onProgress?.({ ...progress });
    if (rows.length < options.batchSize) return progress;
  }
}

/** Rewraps every target in turn; the report of each. */
export async function rewrapTargets(db: Knex, targets: readonly RewrapTarget[], options: RewrapOptions): Promise<RewrapProgress[]> {
  const report: RewrapProgress[] = [];
  for (const target of targets) report.push(await rewrapTarget(db, target, options));
  return report;
}

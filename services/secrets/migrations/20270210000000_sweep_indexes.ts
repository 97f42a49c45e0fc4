import type { Knex } from 'knex';

/**
 * What the sweeper needs to stay cheap as the tables grow (docs/performance.md, "Costs that stay
 * flat as the data grows"):
 * - `outbox_metadata_hash`: deleting a receipt looks for its outbox rows (the foreign key's ON
 *   DELETE CASCADE); without an index every deleted receipt read the whole outbox.
 * - `outbox_expires_at`: the sweeper takes expired e-mail requests oldest first, a batch at a time.
 * - `secret_requests_closed`: when a request's link closed (answered, cancelled or expired), the
 *   moment the sweeper counts its retention from; the sweeper read the whole table for it.
 * - `metadata_unswept` goes: the statement that deletes an expired secret now clears its receipt's
 *   sealed key, found through the secret; nothing reads that index any more, and a column in an
 *   index's predicate makes every update of a receipt (a reveal's, the sweeper's) write a new
 *   entry into each of metadata's indexes instead of updating the row in place (a HOT update).
 *
 * Built CONCURRENTLY, outside a transaction, so a large live table keeps taking writes meanwhile;
 * an index a failed build left invalid is dropped and built again. The planner knows the values of
 * an indexed expression only from ANALYZE: secret_requests is analysed at the end.
 */
export const config = { transaction: false };

const INDEXES = {
  outbox_metadata_hash: 'outbox (metadata_hash)',
  outbox_expires_at: 'outbox (expires_at)',
  secret_requests_closed: 'secret_requests ((LEAST(expires_at, COALESCE(fulfilled_at, cancelled_at, expires_at))))',
};

async function createIndex(knex: Knex, name: string, definition: string): Promise<void> {
  const { rows } = await knex.raw<{ rows: { valid: boolean }[] }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (rows[0]?.valid === false) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ??`, [name]);
  await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ?? ON ${definition}`, [name]);
}

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of Object.entries(INDEXES)) await createIndex(knex, name, definition);
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS metadata_unswept');
  await knex.raw('ANALYZE secret_requests');
}

export async function down(knex: Knex): Promise<void> {
  await createIndex(knex, 'metadata_unswept', 'metadata (secret_expires_at) WHERE secret_key_sealed IS NOT NULL');
  for (const name of Object.keys(INDEXES)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

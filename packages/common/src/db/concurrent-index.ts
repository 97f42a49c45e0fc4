import type { Knex } from 'knex';

/**
 * Builds an index without blocking the table's writes (`CREATE INDEX CONCURRENTLY`, so from a
 * migration with `config = { transaction: false }`). A build that failed part-way leaves an invalid
 * index under the name, which `IF NOT EXISTS` would keep; that one is dropped and built again.
 * `definition` is what follows `ON` (the table, the method and the columns or expressions).
 */
export async function createIndexConcurrently(knex: Knex, name: string, definition: string): Promise<void> {
  const { rows } = await knex.raw<{ rows: { valid: boolean }[] }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (rows[0]?.valid === false) await dropIndexConcurrently(knex, name);
  await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ?? ON ${definition}`, [name]);
}

export async function dropIndexConcurrently(knex: Knex, name: string): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

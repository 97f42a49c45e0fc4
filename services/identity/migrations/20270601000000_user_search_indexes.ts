import type { Knex } from 'knex';

/**
 * One trigram index over the four columns a user search looks in (username, e-mail, first and
 * last name, lowered and joined): a search for a part of one of them was four trigram index scans
 * OR-ed, each reading its posting lists, 4.5 ms at 100,000 users; through this index it is one
 * scan, 0.8 ms (docs/performance.md, "A search for one user's name"). The repository keeps the
 * four conditions as the exact test; the index only finds the candidates, so the separator
 * between the columns matters for nothing but the candidates it yields.
 * And the lowered username as a B-tree: `username=...&exact=true`, the lookup provisioning tools
 * make before creating a user, went through the username's trigram index (4 ms cold at 100,000
 * users, every trigram's posting list read) instead of one B-tree descent.
 * Built CONCURRENTLY, outside a transaction, as 20270210000000_scale_indexes: the table keeps
 * taking writes; an index a failed build left invalid is dropped and built again.
 */
export const config = { transaction: false };

const INDEXES = {
  users_search_trgm: `users USING gin (lower(coalesce(username, '') || ' ' || coalesce(email, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops)`,
  users_lower_username: 'users (lower(username))',
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
  await knex.raw('ANALYZE users');
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(INDEXES)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

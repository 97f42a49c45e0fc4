import type { Knex } from 'knex';

/**
 * Indexes for the orders the admin API's user and client lists offer (`sort`, db/list-sort.ts):
 * each on `(the sort expression, the list's unique tie)`, the same expression the query orders
 * by, so a page in either direction is one index range however far into the list it is (without
 * them, every page sorted all the users). Events sort by time only, which the indexes of
 * 20270210000000_scale_indexes serve read backwards. Built CONCURRENTLY, outside a transaction,
 * as there; an index a failed build left invalid is dropped and built again.
 */
export const config = { transaction: false };

const INDEXES = {
  users_email_sort: "users ((coalesce(lower(email), '')), username)",
  users_last_name_sort: "users ((coalesce(lower(last_name), '')), username)",
  users_email_verified_sort: 'users (email_verified, username)',
  users_enabled_sort: 'users (enabled, username)',
  users_created_sort: 'users (created_at, username)',
  clients_name_sort: 'clients ((lower(name)), client_id)',
  clients_public_sort: 'clients ((secret_hash IS NULL), client_id)',
  clients_consent_sort: 'clients (consent_required, client_id)',
  clients_enabled_sort: 'clients (enabled, client_id)',
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
  await knex.raw('ANALYZE users, clients');
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(INDEXES)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

import type { Knex } from 'knex';

/**
 * Indexes for the event filters that read every event (docs/performance.md, "Costs that stay
 * flat as the data grows"; at 10M events a search by IP address read the whole table, 2.2 s):
 * - user events by IP address, in listing order `(time DESC, id DESC)`;
 * - admin events by the acting user, in listing order, and by resource path (`text_pattern_ops`:
 *   Keycloak's `resourcePath` filter, `users/*`, is a prefix `LIKE`).
 * Built CONCURRENTLY, outside a transaction, as 20270210000000_scale_indexes: the tables keep
 * taking writes; an index a failed build left invalid is dropped and built again.
 */
export const config = { transaction: false };

const INDEXES = {
  events_ip_time: 'events (ip_address, "time" DESC, id DESC) WHERE ip_address IS NOT NULL',
  admin_events_auth_user_time: 'admin_events (auth_user_id, "time" DESC, id DESC) WHERE auth_user_id IS NOT NULL',
  admin_events_resource_path: 'admin_events (resource_path text_pattern_ops)',
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
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(INDEXES)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
}

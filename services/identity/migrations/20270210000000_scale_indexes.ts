import type { Knex } from 'knex';

/**
 * Indexes that keep the admin API's lists and searches, and the account and session lookups,
 * independent of how many users, clients, events and artifacts there are (docs/performance.md,
 * "Costs that stay flat as the data grows"):
 * - events and admin events in their listing order, `(time DESC, id DESC)`, replacing `(time DESC)`
 *   (each page was sorted again by id), and user events by user, by client and by type in that
 *   order: a filtered page read every event until it had found enough, up to the whole table;
 * - trigram indexes (pg_trgm, a trusted extension the database owner may create) on the lowered
 *   username, e-mail, first and last name, and client id: a search for a part of them read every
 *   row; they also answer the case-insensitive exact searches (`exact=true`);
 * - the lowered e-mail address, for "Forgot password?" and registration's duplicate check;
 * - an artifact's account (`payload->>'accountId'`): a person's sessions and grants (the account
 *   console, the admin API, signing everyone out on disable or password change) were found by
 *   reading every session, grant and refresh token.
 *
 * Built CONCURRENTLY, outside a transaction, so large live tables keep taking writes meanwhile; an
 * index a failed build left invalid is dropped and built again. The tables are analysed at the
 * end: the planner knows an expression's values (a lowered name, an account) only from ANALYZE,
 * and autovacuum would analyse a large table that changes little only much later.
 */
export const config = { transaction: false };

const INDEXES = {
  events_time_id: 'events ("time" DESC, id DESC)',
  events_user_time: 'events (user_id, "time" DESC, id DESC) WHERE user_id IS NOT NULL',
  events_client_time: 'events (client_id, "time" DESC, id DESC) WHERE client_id IS NOT NULL',
  events_type_time: 'events (type, "time" DESC, id DESC)',
  admin_events_time_id: 'admin_events ("time" DESC, id DESC)',
  users_username_trgm: 'users USING gin (lower(username) gin_trgm_ops)',
  users_email_trgm: 'users USING gin (lower(email) gin_trgm_ops)',
  users_first_name_trgm: 'users USING gin (lower(first_name) gin_trgm_ops)',
  users_last_name_trgm: 'users USING gin (lower(last_name) gin_trgm_ops)',
  users_lower_email: 'users (lower(email))',
  clients_client_id_trgm: 'clients USING gin (lower(client_id) gin_trgm_ops)',
  oidc_models_account: "oidc_models ((payload->>'accountId'))",
};
/** Replaced by the first and fifth above. */
const REPLACED = { events_time: 'events ("time" DESC)', admin_events_time: 'admin_events ("time" DESC)' };

async function createIndex(knex: Knex, name: string, definition: string): Promise<void> {
  const { rows } = await knex.raw<{ rows: { valid: boolean }[] }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (rows[0]?.valid === false) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ??`, [name]);
  await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ?? ON ${definition}`, [name]);
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  for (const [name, definition] of Object.entries(INDEXES)) await createIndex(knex, name, definition);
  for (const name of Object.keys(REPLACED)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
  await knex.raw('ANALYZE users, clients, oidc_models, events, admin_events');
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, definition] of Object.entries(REPLACED)) await createIndex(knex, name, definition);
  for (const name of Object.keys(INDEXES)) await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS ??', [name]);
  // pg_trgm stays: another schema of the database may use it.
}

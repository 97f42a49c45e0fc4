import type { Knex } from 'knex';

/**
 * The web app's sessions (src/web/sessions.repository.ts), shared by every replica: the row is
 * found by SHA-256 of the cookie's 256-bit id (the id itself is never stored), and the tokens
 * from identity are sealed under a MASTER_KEY-derived key bound to that hash. A row lives until
 * its idle or absolute deadline, whichever comes first; the sweeper deletes it after that.
 * API tokens gain `last_used_at` for the tokens page (written at most once a minute per token).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('web_sessions', (t) => {
    t.binary('id_hash').primary();
    t.text('custid').notNullable();
    t.binary('tokens_sealed').notNullable();
    t.timestamp('access_expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('idle_expires_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX web_sessions_idle_expires_at ON web_sessions (idle_expires_at)');
  await knex.raw('CREATE INDEX web_sessions_custid ON web_sessions (custid)');
  await knex.schema.alterTable('api_tokens', (t) => {
    t.timestamp('last_used_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropColumn('last_used_at');
  });
  await knex.schema.dropTableIfExists('web_sessions');
}

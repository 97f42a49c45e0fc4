import type { Knex } from 'knex';

/**
 * Deletes the refresh tokens of the given grants, for the statement that saves the refresh token
 * replacing them (src/oidc/adapter.repository.ts), through a plain index scan, never a bitmap or
 * a sequential one. The refresh tokens of a client-credentials grant are deleted and inserted
 * again on every request, so until VACUUM comes by the indexes hold thousands of entries for that
 * one grant, nearly all of them dead. A plain index scan marks each dead entry it meets, and later
 * scans skip it without a visit to the table; the bitmap scan the planner prefers for such a key
 * marks nothing and visits every dead row again on every request (2 ms per statement after 5 s of
 * one busy client), and a sequential scan reads the whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION delete_refresh_tokens_of(grant_ids text[]) RETURNS bigint
    LANGUAGE sql VOLATILE
    SET enable_bitmapscan = off
    SET enable_seqscan = off
    AS $$
      WITH deleted AS (DELETE FROM oidc_models WHERE model = 'RefreshToken' AND grant_id = ANY(grant_ids) RETURNING 1)
      SELECT count(*) FROM deleted
    $$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION delete_refresh_tokens_of(text[])`);
}

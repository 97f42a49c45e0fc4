import type { Knex } from 'knex';

/**
 * Deletes the refresh tokens of the grants `grant_ids`, for the statement that saves the refresh
 * tokens replacing them (src/oidc/adapter.repository.ts), after locking the rows of every grant
 * that statement writes (`grant_keys`: their ids hashed, as the adapter stores them), in the
 * bytewise order of their keys, the order in which the adapter writes rows. Two statements replacing the refresh tokens of one grant then run one after the other,
 * and the second deletes the tokens the first saved. Without that lock each DELETE locks rows in
 * its plan's order (the primary key's or the grant_id index's), and sessions that planned it
 * differently deadlocked on each other's rows.
 *
 * The DELETE runs as a plain index scan, never a bitmap or a sequential one. The refresh tokens of
 * a client-credentials grant are deleted and inserted again on every request, so until VACUUM
 * comes by the indexes hold thousands of entries for that one grant, nearly all of them dead. A
 * plain index scan marks each dead entry it meets, and later scans skip it without a visit to the
 * table; the bitmap scan the planner prefers for such a key marks nothing and visits every dead
 * row again on every request (2 ms per statement after 5 s of one busy client), and a sequential
 * scan reads the whole table. PL/pgSQL, not SQL: it keeps its plans for the session, where a SQL
 * function plans its statements again on every call.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION replace_refresh_tokens(grant_ids text[], grant_keys text[]) RETURNS bigint
    LANGUAGE plpgsql VOLATILE
    SET enable_bitmapscan = off
    SET enable_seqscan = off
    AS $$
    DECLARE
      deleted bigint;
    BEGIN
      PERFORM 1 FROM oidc_models WHERE model = 'Grant' AND id = ANY(grant_keys) ORDER BY id COLLATE "C" FOR UPDATE;
      DELETE FROM oidc_models WHERE model = 'RefreshToken' AND grant_id = ANY(grant_ids);
      GET DIAGNOSTICS deleted = ROW_COUNT;
      RETURN deleted;
    END
    $$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION replace_refresh_tokens(text[], text[])`);
}

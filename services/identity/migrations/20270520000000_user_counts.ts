import type { Knex } from 'knex';

/**
 * A running count of the users the admin API counts (every user but service accounts), per
 * organization, so `GET /users/count` (which the admin console asks on every user list) reads a
 * few rows instead of every user (docs/performance.md, "Costs that stay flat as the data grows"):
 * - `user_counts`: per organization (the nil UUID for users in none) and slot, a number to add;
 *   an organization's count is the sum of its slots. Each statement that adds, removes or moves
 *   users adds its net change to one slot drawn at random, so concurrent sign-ups seldom wait
 *   on one another's row.
 * - statement-level triggers on `users` (insert, update, delete) with transition tables: one
 *   upsert per statement, whatever the number of rows; `TRUNCATE users` empties the counts.
 * Filled from the table under a lock that holds off writers while the triggers come in.
 */
const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
const SLOTS = 8;

/** `INSERT` of the net change per organization in `source` (rows of organization_key, d). */
const upsert = (source: string) => `
    INSERT INTO user_counts (organization_key, slot, n)
    SELECT organization_key, floor(random() * ${SLOTS})::int, sum(d) FROM (${source}) c
    GROUP BY organization_key HAVING sum(d) <> 0 ORDER BY organization_key
    ON CONFLICT (organization_key, slot) DO UPDATE SET n = user_counts.n + excluded.n;`;
const counted = (table: string, d: number) => `SELECT coalesce(organization_id, ${NIL}) AS organization_key, ${d} AS d FROM ${table} WHERE service_account_client_id IS NULL`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE;
    CREATE TABLE user_counts (
      organization_key uuid NOT NULL,
      slot int NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (organization_key, slot)
    );
    CREATE FUNCTION user_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${upsert(counted('added', 1))}
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert(counted('removed', -1))}
      ELSIF TG_OP = 'UPDATE' THEN
        ${upsert(`${counted('added', 1)} UNION ALL ${counted('removed', -1)}`)}
      ELSE
        DELETE FROM user_counts;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER user_counts_insert AFTER INSERT ON users REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();
    CREATE TRIGGER user_counts_update AFTER UPDATE ON users REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();
    CREATE TRIGGER user_counts_delete AFTER DELETE ON users REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();
    CREATE TRIGGER user_counts_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION user_counts_follow();
    INSERT INTO user_counts (organization_key, slot, n)
    SELECT coalesce(organization_id, ${NIL}), 0, count(*) FROM users WHERE service_account_client_id IS NULL GROUP BY 1;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER user_counts_insert ON users;
    DROP TRIGGER user_counts_update ON users;
    DROP TRIGGER user_counts_delete ON users;
    DROP TRIGGER user_counts_truncate ON users;
    DROP FUNCTION user_counts_follow();
    DROP TABLE user_counts;
  `);
}

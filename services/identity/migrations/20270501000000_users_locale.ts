import type { Knex } from 'knex';

/**
 * A person's language, Keycloak's `locale` user attribute: a BCP 47 tag the account console and
 * the admin API set (null: none chosen). It chooses the account pages' language after a request's
 * own hints, and the language of the e-mails identity sends the person when no request says one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE users ADD COLUMN locale varchar(35)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE users DROP COLUMN locale`);
}

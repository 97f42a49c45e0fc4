import type { Knex } from 'knex';

/**
 * Handover labels: `secrets.handover_sealed` says what a handed-over credential is (a client's
 * secret, an account's password; its name, who handed it over), for its reveal page to name it.
 * Sealed under a key derived from the secret key, as the recipient's address is, so the database
 * alone never yields it; gone with its secret. Null: an ordinary secret.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('secrets', (t) => {
    t.binary('handover_sealed');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('secrets', (t) => {
    t.dropColumn('handover_sealed');
  });
}

import type { Knex } from 'knex';

/**
 * A link proves the address it was mailed to, not whatever the account holds when it is used:
 * `action_tokens.sent_to_hash` is SHA-256 of that address, lower-cased by PostgreSQL's `lower()`
 * (the case rule of every e-mail comparison in identity), so the row keeps no address in clear.
 * A link opens only while the account's address has the same hash (account-actions/).
 *
 * Links issued before this migration have none and open nothing: the address they went to is
 * not known any more (their e-mail is gone from the outbox), and binding them to the account's
 * current address would let a link mailed before a change verify the new address. People ask
 * for a new link; an administrator sends execute-actions again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE action_tokens ADD COLUMN sent_to_hash bytea`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE action_tokens DROP COLUMN sent_to_hash`);
}

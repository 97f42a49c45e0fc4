import type { Knex } from 'knex';

/**
 * A link proves the address it was mailed to, not whatever the account holds when it is used:
 * - `users.address_version` counts the account's changes of address (case aside): the update that
 *   changes the address raises it (users/users.repository.ts);
 * - `action_tokens.sent_to_hash` (SHA-256 of the address trimmed and lower-cased: no address in
 *   clear) and `action_tokens.address_version` record where and when the link went. A link opens
 *   only while both still match the account (account-links/), so a change of address cancels
 *   every open link for good, even if the account moves back.
 * Links issued before this migration have neither and open nothing: the address they went to is
 * not known any more (their e-mail left the outbox), and binding them to the account's current
 * address would let a link mailed before a change verify the new address. People ask for a new
 * link; an administrator sends execute-actions again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE users ADD COLUMN address_version integer NOT NULL DEFAULT 0;
    ALTER TABLE action_tokens ADD COLUMN sent_to_hash bytea, ADD COLUMN address_version integer;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE action_tokens DROP COLUMN sent_to_hash, DROP COLUMN address_version;
    ALTER TABLE users DROP COLUMN address_version;
  `);
}

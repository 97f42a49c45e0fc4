import type { Knex } from 'knex';

/**
 * Recipient-only secrets:
 * - `secrets.recipient_sealed`: the one address that may read the secret, sealed under a key
 *   derived from the secret key (as the value is), so the database alone never yields it; null:
 *   whoever holds the link.
 * - `metadata.recipient_only`; `metadata.refused_attempts`: openings refused to someone else;
 *   `metadata.refused_notified_at`: when the creator was last told of one (the rate limit).
 * - `recipient_codes`: the one live one-time code of a secret for a recipient without an account,
 *   kept only as an HMAC, with its attempts and sends counted; gone with its secret.
 * - `outbox.notify_event` may be `refused`; `outbox.metadata_hash` may be null (the e-mail of a
 *   secret request, which has no metadata).
 * - `account_settings`: an account's defaults for the share page (the events it is told about).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('secrets', (t) => {
    t.binary('recipient_sealed');
  });
  await knex.schema.alterTable('metadata', (t) => {
    t.boolean('recipient_only').notNullable().defaultTo(false);
    t.integer('refused_attempts').notNullable().defaultTo(0);
    t.timestamp('refused_notified_at', { useTz: true });
  });
  await knex.schema.createTable('recipient_codes', (t) => {
    t.binary('secret_hash').primary().references('secrets.secret_hash').onDelete('CASCADE');
    t.binary('code_hash').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('sends').notNullable().defaultTo(1);
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('ALTER TABLE outbox DROP CONSTRAINT outbox_notify_event');
  await knex.raw(`ALTER TABLE outbox ADD CONSTRAINT outbox_notify_event CHECK (notify_event IN ('revealed','burned','expired','refused'))`);
  await knex.raw('ALTER TABLE outbox ALTER COLUMN metadata_hash DROP NOT NULL');
  await knex.schema.createTable('account_settings', (t) => {
    t.text('custid').primary();
    t.specificType('notify_on', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('account_settings');
  await knex('outbox').where('notify_event', 'refused').orWhereNull('metadata_hash').delete();
  await knex.raw('ALTER TABLE outbox ALTER COLUMN metadata_hash SET NOT NULL');
  await knex.raw('ALTER TABLE outbox DROP CONSTRAINT outbox_notify_event');
  await knex.raw(`ALTER TABLE outbox ADD CONSTRAINT outbox_notify_event CHECK (notify_event IN ('revealed','burned','expired'))`);
  await knex.schema.dropTableIfExists('recipient_codes');
  await knex.schema.alterTable('metadata', (t) => {
    t.dropColumn('refused_notified_at');
    t.dropColumn('refused_attempts');
    t.dropColumn('recipient_only');
  });
  await knex.schema.alterTable('secrets', (t) => {
    t.dropColumn('recipient_sealed');
  });
}

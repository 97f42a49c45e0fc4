import type { Knex } from 'knex';

/**
 * E-mails to a secret's creator when it is revealed, burned or expires unread:
 * - `metadata.notify_on`: the events the creator asked about (null: none);
 *   `metadata.notify_sealed`: where to write (the address and the receipt's short key), sealed
 *   under the outbox key bound to the metadata hash, so the statement that reveals, burns or
 *   sweeps a secret can copy it into the outbox without a key and without another round trip.
 * - `metadata.notify_status`: what the mailer reported of each notification, `{"<event>": "sent" | "failed"}`.
 * - `outbox.notify_event`: an outbox row that is such an e-mail (null: the recipient's link e-mail).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metadata', (t) => {
    t.specificType('notify_on', 'text[]');
    t.binary('notify_sealed');
    t.jsonb('notify_status');
  });
  await knex.schema.alterTable('outbox', (t) => {
    t.text('notify_event');
  });
  await knex.raw(`ALTER TABLE outbox ADD CONSTRAINT outbox_notify_event CHECK (notify_event IN ('revealed','burned','expired'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('notify_event');
  });
  await knex.schema.alterTable('metadata', (t) => {
    t.dropColumn('notify_status');
    t.dropColumn('notify_sealed');
    t.dropColumn('notify_on');
  });
}

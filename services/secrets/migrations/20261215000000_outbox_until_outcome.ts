import type { Knex } from 'knex';

/**
 * The outbox row now stays until the mailer reports the outcome, so a job lost with Redis's data
 * can be queued again: `queued_at` is when it was first handed to the queue (null: not yet), and
 * `requeues` counts the times its job was found gone and added again (the retry budget).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.timestamp('queued_at', { useTz: true });
    t.integer('requeues').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('requeues');
    t.dropColumn('queued_at');
  });
}

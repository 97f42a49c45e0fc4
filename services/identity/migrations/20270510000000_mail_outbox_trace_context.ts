import type { Knex } from 'knex';

/**
 * `mail_outbox.trace_context`: the W3C `traceparent` of the request that wrote an account e-mail
 * (a reset, an address confirmation, execute-actions), when the service traces (OTEL_*), so the
 * relay's hand-off to the mail queue continues that request's trace. Null otherwise. A nullable
 * column without a default: adding it rewrites nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE mail_outbox ADD COLUMN trace_context text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE mail_outbox DROP COLUMN trace_context');
}

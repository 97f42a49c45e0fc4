import type { Knex } from 'knex';

/**
 * `outbox.trace_context`: the W3C `traceparent` of the request that wrote an e-mail request, when
 * the service traces (OTEL_*), so the relay's hand-off to the queue continues that request's trace.
 * Null otherwise. A nullable column without a default: adding it rewrites nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE outbox ADD COLUMN trace_context text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE outbox DROP COLUMN trace_context');
}

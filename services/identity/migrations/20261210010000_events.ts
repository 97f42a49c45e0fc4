import type { Knex } from 'knex';

/**
 * Keycloak's audit trail: user events (sign-ins, token requests, sign-outs, their failures) and
 * admin events (what the admin API changed, by whom), each kept for a retention period, and the
 * realm's events settings (one row; absent until first changed, the environment's defaults apply).
 * Rows never carry a secret or password: the writer removes them (src/events/redact.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE events (
      id bigserial PRIMARY KEY,
      time timestamptz NOT NULL,
      type text NOT NULL,
      client_id text,
      user_id text,
      session_id text,
      ip_address text,
      error text,
      details jsonb
    );
    CREATE INDEX events_time ON events (time DESC);
    CREATE TABLE admin_events (
      id bigserial PRIMARY KEY,
      time timestamptz NOT NULL,
      operation_type text NOT NULL,
      resource_type text NOT NULL,
      resource_path text NOT NULL,
      auth_client_id text,
      auth_user_id text,
      auth_ip_address text,
      representation text,
      error text
    );
    CREATE INDEX admin_events_time ON admin_events (time DESC);
    CREATE TABLE events_config (
      id integer PRIMARY KEY CHECK (id = 1),
      events_enabled boolean NOT NULL,
      admin_events_enabled boolean NOT NULL,
      admin_events_details_enabled boolean NOT NULL,
      enabled_event_types text[] NOT NULL,
      events_expiration integer
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE events_config; DROP TABLE admin_events; DROP TABLE events;`);
}

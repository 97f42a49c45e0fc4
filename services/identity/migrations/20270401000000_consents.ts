import type { Knex } from 'knex';

/**
 * Consent as Keycloak has it:
 * - `clients.consent_required` (Keycloak's `consentRequired`, off by default): only such a client
 *   shows the consent page; every other client gets the scopes it asks for without a question.
 * - `consents`: what a person allowed a client, per person and client, kept across sign-outs and
 *   browsers until the person revokes it in the account console (or the user or client goes).
 *   `scopes` are OpenID scopes, `resource_scopes` an API's scopes by its identifier.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE clients ADD COLUMN consent_required boolean NOT NULL DEFAULT false;
    CREATE TABLE consents (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      client_id text NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE ON UPDATE CASCADE,
      scopes text[] NOT NULL DEFAULT '{}',
      resource_scopes jsonb NOT NULL DEFAULT '{}',
      granted_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, client_id)
    );
    CREATE INDEX consents_client ON consents (client_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE consents; ALTER TABLE clients DROP COLUMN consent_required;`);
}

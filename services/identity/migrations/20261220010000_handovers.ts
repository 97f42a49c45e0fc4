import type { Knex } from 'knex';

/**
 * Credentials handed over as one-time secrets (src/handover/): only the receipt is kept, never the
 * credential. `metadata_key` is the secrets service's key to the secret's metadata (it shows the
 * secret's fate and can burn it, never reveal it); `recipient` is the address as the secrets service
 * obfuscated it. `subject_id` is the client's or user's internal id (no foreign key: the receipt
 * outlives a deleted client or user, as the audit trail does).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE handovers (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('client_secret', 'password')),
      subject_id text NOT NULL,
      organization_id uuid,
      recipient text NOT NULL,
      metadata_key text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX handovers_subject ON handovers (subject_id, created_at DESC);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE handovers;`);
}

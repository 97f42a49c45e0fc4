import type { Knex } from 'knex';

/**
 * Second factors and passkeys (Keycloak's credential types `otp` and `webauthn-passwordless`):
 * - `user_credentials`: one row per credential. A TOTP secret is stored sealed (AES-256-GCM under a
 *   key derived from MASTER_KEY, bound to the row's id), with the last time step it accepted, so a
 *   code is accepted once; at most one TOTP credential per user. A passkey keeps its WebAuthn
 *   credential id, public key and signature counter (public data).
 * - `recovery_codes`: the ten single-use codes of a user's TOTP, as keyed hashes; `used_at` is set
 *   by the statement that accepts one.
 * - `organizations.require_second_factor`: members must sign in with a second factor.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE user_credentials (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('otp', 'webauthn-passwordless')),
      user_label text,
      secret_sealed bytea,
      last_step bigint,
      webauthn_id text UNIQUE,
      public_key bytea,
      sign_count bigint NOT NULL DEFAULT 0,
      transports text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (type <> 'otp' OR secret_sealed IS NOT NULL),
      CHECK (type <> 'webauthn-passwordless' OR (webauthn_id IS NOT NULL AND public_key IS NOT NULL))
    );
    CREATE INDEX user_credentials_user ON user_credentials (user_id);
    CREATE UNIQUE INDEX user_credentials_one_otp ON user_credentials (user_id) WHERE type = 'otp';
    CREATE TABLE recovery_codes (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    );
    ALTER TABLE organizations ADD COLUMN require_second_factor boolean NOT NULL DEFAULT false;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE organizations DROP COLUMN require_second_factor;
    DROP TABLE recovery_codes;
    DROP TABLE user_credentials;
  `);
}

import type { Knex } from 'knex';

/**
 * What identity mails people about their own account, and how it leaves:
 * - `action_tokens`: the single-use links of a password reset, an administrator's execute-actions
 *   e-mail or a self-registration's address confirmation. Only the SHA-256 of the token is kept
 *   (the link's key is 256 random bits); `used_at` is set by the one statement that redeems it.
 *   The delivery status of its e-mail (what the mailer reported) is kept on it.
 * - `mail_outbox`: the e-mail request, written by the same statement as its token, sealed under a
 *   MASTER_KEY-derived key bound to the row id (address and link); the relay (packages/delivery)
 *   hands it to the mail queue and the row goes once the outcome is known or the link has expired.
 * - `users.self_registered`: registered through the login page; such an account signs in only
 *   once its address is confirmed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE action_tokens (
      id uuid PRIMARY KEY,
      token_hash bytea NOT NULL UNIQUE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('reset-password', 'execute-actions', 'verify-email')),
      actions text[] NOT NULL,
      client_id text,
      redirect_uri text,
      interaction_uid text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      delivery_status text CHECK (delivery_status IN ('sent', 'failed')),
      delivery_updated_at timestamptz,
      delivery_reason text
    );
    CREATE INDEX action_tokens_user ON action_tokens (user_id);
    CREATE INDEX action_tokens_expires ON action_tokens (expires_at);
    CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY,
      token_id uuid NOT NULL REFERENCES action_tokens(id) ON DELETE CASCADE,
      payload_sealed bytea NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      queued_at timestamptz,
      requeues integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
    ALTER TABLE users ADD COLUMN self_registered boolean NOT NULL DEFAULT false;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE users DROP COLUMN self_registered;
    DROP TABLE mail_outbox;
    DROP TABLE action_tokens;
  `);
}

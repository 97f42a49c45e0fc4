import type { Db } from '../db/knex.js';

/**
 * The one-time codes of recipient-only secrets (one live code per secret, stored as an HMAC), and
 * the outbox row of the e-mail that carries each: both written by one statement.
 */
export class RecipientCodesRepository {
  constructor(private readonly db: Db) {}

  /**
   * A new code for a live recipient-only secret, replacing the previous one, and its e-mail in the
   * outbox (due until the code expires), in ONE statement. Refused (false) when the secret is not
   * live and recipient-only, after `maxSends` codes, or within `resendAfterSeconds` of the last.
   */
  async issue(
    secretHash: Buffer,
    code: { hash: Buffer; ttlSeconds: number },
    limits: { maxSends: number; resendAfterSeconds: number },
    outbox: { id: string; payloadSealed: Buffer },
  ): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: { n: number }[] }>(
      `WITH s AS (
         SELECT secret_hash, metadata_hash FROM secrets WHERE secret_hash = ? AND recipient_sealed IS NOT NULL AND expires_at > now()
       ), c AS (
         INSERT INTO recipient_codes (secret_hash, code_hash, attempts, sends, sent_at, expires_at)
         SELECT secret_hash, ?, 0, 1, now(), now() + make_interval(secs => ?) FROM s
         ON CONFLICT (secret_hash) DO UPDATE
           SET code_hash = EXCLUDED.code_hash, attempts = 0, sends = recipient_codes.sends + 1, sent_at = now(), expires_at = EXCLUDED.expires_at
           WHERE recipient_codes.sends < ? AND recipient_codes.sent_at <= now() - make_interval(secs => ?)
         RETURNING secret_hash, expires_at
       ), o AS (
         INSERT INTO outbox (id, metadata_hash, payload_sealed, expires_at)
         SELECT ?::uuid, s.metadata_hash, ?, c.expires_at FROM c JOIN s ON s.secret_hash = c.secret_hash
       )
       SELECT count(*)::int AS n FROM c`,
      [secretHash, code.hash, code.ttlSeconds, limits.maxSends, limits.resendAfterSeconds, outbox.id, outbox.payloadSealed],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /**
   * Reserves an attempt at the secret's live code before it is compared (as passphrase attempts:
   * parallel guesses cannot exceed `max`); undefined when there is no live code or none left.
   */
  async reserveAttempt(secretHash: Buffer, max: number): Promise<{ codeHash: Buffer; attempts: number } | undefined> {
    const { rows } = await this.db.raw<{ rows: { code_hash: Buffer; attempts: number }[] }>(
      `UPDATE recipient_codes SET attempts = attempts + 1
       WHERE secret_hash = ? AND attempts < ? AND expires_at > now()
       RETURNING code_hash, attempts`,
      [secretHash, max],
    );
    const row = rows[0];
    return row ? { codeHash: row.code_hash, attempts: row.attempts } : undefined;
  }
}

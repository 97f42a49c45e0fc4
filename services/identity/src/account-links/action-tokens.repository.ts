import type { AccountAction } from '@hush/queue';
import { inBoundedBatches } from '@hush/common';
import type { Db } from '../db/index.js';

export type ActionTokenKind = 'reset-password' | 'execute-actions' | 'verify-email';

/** A single-use link's record; the token itself is never stored, only its SHA-256. */
export interface ActionToken {
  id: string;
  userId: string;
  kind: ActionTokenKind;
  actions: AccountAction[];
  clientId: string | null;
  redirectUri: string | null;
  /** The login (oidc-provider interaction) the person was in when asking for it, to continue afterwards. */
  interactionUid: string | null;
  /** Where the link went: SHA-256 of the address (trimmed, lower-cased); null for links from before it was recorded. */
  sentToHash: Buffer | null;
  /** The account's `addressVersion` when the link went; null as `sentToHash`. */
  addressVersion: number | null;
  expiresAt: Date;
}

export interface NewActionToken extends ActionToken {
  tokenHash: Buffer;
}

/** The e-mail request written with the token: its outbox row, sealed (address and link). */
export interface OutboxEntry {
  id: string;
  payloadSealed: Buffer;
  /** The W3C `traceparent` of the request that asked for the e-mail, when the service traces. */
  traceContext?: string | undefined;
}

type Row = {
  id: string;
  user_id: string;
  kind: ActionTokenKind;
  actions: AccountAction[];
  client_id: string | null;
  redirect_uri: string | null;
  interaction_uid: string | null;
  sent_to_hash: Buffer | null;
  address_version: number | null;
  expires_at: Date;
};

const COLUMNS = 'id, user_id, kind, actions, client_id, redirect_uri, interaction_uid, sent_to_hash, address_version, expires_at';

const toToken = (r: Row): ActionToken => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  actions: r.actions,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  interactionUid: r.interaction_uid,
  sentToHash: r.sent_to_hash,
  addressVersion: r.address_version,
  expiresAt: r.expires_at,
});

export class ActionTokensRepository {
  constructor(private readonly db: Db) {}

  /**
   * The token and the e-mail that carries its link, in one statement: either both are stored or
   * neither, and the relay (which reads only the outbox) can never send a link whose token is not
   * there. The outbox row lives as long as the link.
   */
  async issue(token: NewActionToken, mail: OutboxEntry): Promise<void> {
    await this.db.raw(
      `WITH t AS (
         INSERT INTO action_tokens (id, token_hash, user_id, kind, actions, client_id, redirect_uri, interaction_uid, sent_to_hash, address_version, expires_at)
         VALUES (?::uuid, ?, ?::uuid, ?, ?::text[], ?, ?, ?, ?, ?, ?) RETURNING id, expires_at
       )
       INSERT INTO mail_outbox (id, token_id, payload_sealed, expires_at, trace_context) SELECT ?::uuid, t.id, ?, t.expires_at, ? FROM t`,
      [
        ...[token.id, token.tokenHash, token.userId, token.kind, token.actions, token.clientId, token.redirectUri, token.interactionUid, token.sentToHash, token.addressVersion],
        token.expiresAt,
        ...[mail.id, mail.payloadSealed, mail.traceContext ?? null],
      ],
    );
  }

  /** The token of this hash while it can still be used (not used, not expired); whether its account still has its address is the caller's check. */
  async findUsable(tokenHash: Buffer): Promise<ActionToken | undefined> {
    const { rows } = await this.db.raw<{ rows: Row[] }>(`SELECT ${COLUMNS} FROM action_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > now()`, [tokenHash]);
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  /**
   * Uses the token: one statement marks it used if it still can be, so of two requests racing with
   * one link exactly one gets the token; the other, like any later one, gets nothing.
   */
  async redeem(tokenHash: Buffer): Promise<ActionToken | undefined> {
    const { rows } = await this.db.raw<{ rows: Row[] }>(
      `UPDATE action_tokens SET used_at = now() WHERE token_hash = ? AND used_at IS NULL AND expires_at > now() RETURNING ${COLUMNS}`,
      [tokenHash],
    );
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  /** Uses up every other password-reset link of the user still open (after a new password was set). */
  async retireResetLinks(userId: string): Promise<void> {
    await this.db.raw(`UPDATE action_tokens SET used_at = now() WHERE user_id = ?::uuid AND kind = 'reset-password' AND used_at IS NULL`, [userId]);
  }

  /** What the mailer reported for the token's e-mail (`sent` is final). */
  async deliveryOf(id: string): Promise<{ status: 'sent' | 'failed' | null; reason: string | null } | undefined> {
    const { rows } = await this.db.raw<{ rows: { delivery_status: 'sent' | 'failed' | null; delivery_reason: string | null }[] }>(
      `SELECT delivery_status, delivery_reason FROM action_tokens WHERE id = ?::uuid`,
      [id],
    );
    return rows[0] ? { status: rows[0].delivery_status, reason: rows[0].delivery_reason } : undefined;
  }

  /** Tokens expired for a day (their outbox rows go with them), `batchSize` per statement; how many went. */
  sweep(batchSize: number, signal?: AbortSignal): Promise<number> {
    return inBoundedBatches(
      async (limit) => {
        const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
          `DELETE FROM action_tokens WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM action_tokens WHERE expires_at < now() - interval '1 day' ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))`,
          [limit],
        );
        return rowCount ?? 0;
      },
      batchSize,
      signal,
    );
  }
}

import type { Db } from '../db/index.js';
import { artifactKey } from '../oidc/artifact-key.js';

/** A user's sign-in session as the admin API shows it (Keycloak's UserSessionRepresentation). */
export interface UserSession {
  /** The session's interaction-independent public id (its `uid`); never the cookie value. */
  id: string;
  userId: string;
  start: number;
  lastAccess: number;
  clients: string[];
}

type SessionRow = { payload: { uid?: string; accountId?: string; loginTs?: number; iat?: number; authorizations?: Record<string, { grantId?: string; sid?: string }> } };

/** A session with, per client it signed in to, that authorization's grant and `sid` (the ID token's claim). */
export interface AccountSession extends UserSession {
  authorizations: { clientId: string; grantId: string | undefined; sid: string | undefined }[];
}

/** A grant (a consent) of the account: its row key (the grant id's artifactKey), its client and OpenID scopes, and its API scopes. */
export interface AccountGrant {
  key: string;
  clientId: string;
  scopes: string[];
  resourceScopes: string[];
}

/**
 * oidc-provider's stored artifacts (oidc_models) read and removed by account, for the admin API:
 * a disabled or deleted user's sessions, grants and refresh tokens. Rows name their account in the
 * payload (`accountId`); grants are found through the sessions' authorizations and the tokens'
 * `grant_id`. These are rare admin operations, so they scan rather than add an index that every
 * token write would pay for.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async listSessions(accountId: string): Promise<UserSession[]> {
    const { rows } = await this.db.raw<{ rows: SessionRow[] }>(
      `SELECT payload FROM oidc_models WHERE model = 'Session' AND payload->>'accountId' = ? AND (expires_at IS NULL OR expires_at > now())`,
      [accountId],
    );
    return rows.map(({ payload: p }) => ({
      id: p.uid ?? '',
      userId: accountId,
      start: (p.loginTs ?? p.iat ?? 0) * 1000,
      lastAccess: (p.iat ?? p.loginTs ?? 0) * 1000,
      clients: Object.keys(p.authorizations ?? {}),
    }));
  }

  /** The account's live sessions and their per-client authorizations. */
  async accountSessions(accountId: string): Promise<AccountSession[]> {
    const { rows } = await this.db.raw<{ rows: SessionRow[] }>(
      `SELECT payload FROM oidc_models WHERE model = 'Session' AND payload->>'accountId' = ? AND (expires_at IS NULL OR expires_at > now()) ORDER BY (payload->>'loginTs')::bigint DESC NULLS LAST`,
      [accountId],
    );
    return rows.map(({ payload: p }) => ({
      id: p.uid ?? '',
      userId: accountId,
      start: (p.loginTs ?? p.iat ?? 0) * 1000,
      lastAccess: (p.iat ?? p.loginTs ?? 0) * 1000,
      clients: Object.keys(p.authorizations ?? {}),
      authorizations: Object.entries(p.authorizations ?? {}).map(([clientId, a]) => ({ clientId, grantId: a.grantId, sid: a.sid })),
    }));
  }

  /** The account's live grants (oidc-provider stores each under its id's artifactKey, without the id). */
  async accountGrants(accountId: string): Promise<AccountGrant[]> {
    type GrantRow = { id: string; payload: { clientId?: string; openid?: { scope?: string }; resources?: Record<string, string> } };
    const { rows } = await this.db.raw<{ rows: GrantRow[] }>(
      `SELECT id, payload FROM oidc_models WHERE model = 'Grant' AND payload->>'accountId' = ? AND (expires_at IS NULL OR expires_at > now())`,
      [accountId],
    );
    return rows.map(({ id, payload: p }) => ({
      key: id,
      clientId: p.clientId ?? '',
      scopes: (p.openid?.scope ?? '').split(' ').filter(Boolean),
      resourceScopes: Object.values(p.resources ?? {}).flatMap((scope) => scope.split(' ').filter(Boolean)),
    }));
  }

  /** Removes one session of the account (by its public id); false when it has no such session. */
  async deleteSession(accountId: string, uid: string): Promise<boolean> {
    const deleted = await this.db.raw<{ rowCount: number }>(`DELETE FROM oidc_models WHERE model = 'Session' AND payload->>'accountId' = ? AND payload->>'uid' = ?`, [
      accountId,
      uid,
    ]);
    return deleted.rowCount > 0;
  }

  /** Removes grants of the account (by id, and by row key for grants whose id no artifact names any more) and every artifact issued under them. */
  async deleteGrants(accountId: string, grantIds: string[], keys: string[] = []): Promise<void> {
    await this.db.raw(
      `DELETE FROM oidc_models WHERE (grant_id = ANY(?::text[]) AND payload->>'accountId' = ?) OR (model = 'Grant' AND id = ANY(?::text[]) AND payload->>'accountId' = ?)`,
      [grantIds, accountId, [...grantIds.map(artifactKey), ...keys], accountId],
    );
  }

  /** The ids of every grant of the account (its sessions' and its tokens'). */
  async grantIds(accountId: string): Promise<string[]> {
    const { rows } = await this.db.raw<{ rows: { grant_id: string }[] }>(
      `SELECT DISTINCT grant_id FROM oidc_models WHERE grant_id IS NOT NULL AND payload->>'accountId' = ?
       UNION
       SELECT DISTINCT a.value->>'grantId' FROM oidc_models s, jsonb_each(s.payload->'authorizations') a
         WHERE s.model = 'Session' AND s.payload->>'accountId' = ? AND a.value->>'grantId' IS NOT NULL`,
      [accountId, accountId],
    );
    return rows.map((r) => r.grant_id).filter(Boolean);
  }

  /** Removes the account's sessions, its grants and every artifact issued under them. */
  async deleteForAccount(accountId: string, grantIds: string[]): Promise<void> {
    await this.db.raw(`DELETE FROM oidc_models WHERE payload->>'accountId' = ? OR grant_id = ANY(?::text[]) OR (model = 'Grant' AND id = ANY(?::text[]))`, [
      accountId,
      grantIds,
      grantIds.map(artifactKey),
    ]);
  }
}

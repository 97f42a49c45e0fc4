import type { Adapter, AdapterPayload } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { batched, inBoundedBatches, type KeyRing } from '@hush/common';
import { artifactKey, storablePayload } from './artifact-key.js';
import { replacesEarlierRefreshTokens } from './keycloak/client-credentials-refresh.js';
import type { Db } from '../db/index.js';

type Row = { payload: AdapterPayload; consumed_at: Date | null };

export interface AdapterHooks {
  /**
   * A grant was revoked (its row deleted: code replay, refresh token reuse or revocation, logout),
   * after the deletion; a failure fails the operation. JWT access tokens are not stored, so this
   * is how the resource servers learn that the grant's tokens are dead (ADR 10).
   */
  grantRevoked(grantId: string): Promise<void>;
}

/**
 * oidc-provider's storage in one PostgreSQL table keyed by (model, id). Clients are not stored
 * here: the `Client` model is answered by a separate lookup (see provider.ts).
 *
 * The `id` column holds `artifactKey(id)`, never the id (a bearer credential), and the payload is
 * stored without it; a lookup by id hashes it and gives the id back as `jti`. Lookups by a
 * secondary key (a session by its uid) cannot give the id back, and need not: oidc-provider reads
 * such a session and never saves it. A device code is the exception: found by the user code the
 * person typed, it is saved again with their approval under its own id, so its row keeps that id
 * sealed (AES-256-GCM under the newest key of `deviceCodeKeys`, bound to the row's key) and the lookup opens it.
 * Device codes are also found once expired (until the sweep deletes them), as oidc-provider asks,
 * so the person is told the code expired and the device gets RFC 8628's `expired_token`.
 */
export function createAdapterClass(db: Db, findClient: (id: string) => Promise<AdapterPayload | undefined>, hooks: AdapterHooks, deviceCodeKeys?: KeyRing) {
  const live = `(expires_at IS NULL OR expires_at > now())`;
  const SEALED_ID = 'sealed_id';
  const sealId = (id: string, payload: AdapterPayload): AdapterPayload => {
    if (!deviceCodeKeys) throw new Error('device codes need a sealing key');
    return { ...payload, [SEALED_ID]: deviceCodeKeys.seal(id, `DeviceCode ${artifactKey(id)}`).toString('base64') };
  };
  const openId = (payload: AdapterPayload, key: string): string | undefined => {
    const sealed = payload[SEALED_ID];
    if (typeof sealed !== 'string' || !deviceCodeKeys) return undefined;
    return deviceCodeKeys.open(Buffer.from(sealed, 'base64'), `DeviceCode ${key}`).toString();
  };
  // One batch in flight: the saves that arrive meanwhile go together in the next (group commit).
  const upsert = batched((rows: UpsertRow[]) => upsertMany(db, rows), { maxInFlight: 1 });

  const toPayload = (row: Row | undefined, id?: string): AdapterPayload | undefined => {
    if (!row) return undefined;
    const { [SEALED_ID]: _sealed, ...payload } = row.payload;
    return {
      ...payload,
      ...(id === undefined ? {} : { jti: id }),
      ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}),
    };
  };

  return class KnexAdapter implements Adapter {
    constructor(readonly model: string) {}

    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      return upsert({ model: this.model, id, payload: this.model === 'DeviceCode' ? sealId(id, payload) : payload, expiresIn });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(id);
      const when = this.model === 'DeviceCode' ? 'TRUE' : live;
      const { rows } = await db.raw<{ rows: Row[] }>(`SELECT payload, consumed_at FROM oidc_models WHERE model = ? AND id = ? AND ${when}`, [this.model, artifactKey(id)]);
      return toPayload(rows[0], id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const { rows } = await db.raw<{ rows: Row[] }>(`SELECT payload, consumed_at FROM oidc_models WHERE model = ? AND uid = ? AND ${live}`, [this.model, uid]);
      return toPayload(rows[0]);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const { rows } = await db.raw<{ rows: (Row & { id: string })[] }>(`SELECT id, payload, consumed_at FROM oidc_models WHERE model = ? AND user_code = ?`, [
        this.model,
        userCode,
      ]);
      const row = rows[0];
      return row && toPayload(row, openId(row.payload, row.id));
    }

    /**
     * One atomic UPDATE: of two concurrent redemptions of a code or refresh token only one
     * updates the row. The loser (a replay, RFC 6749 §4.1.2 / RFC 9700 §4.14) revokes the whole
     * grant and fails, even though oidc-provider had already read the token as unconsumed.
     */
    async consume(id: string): Promise<void> {
      const key = artifactKey(id);
      const { rows } = await db.raw<{ rows: { id: string }[] }>(`UPDATE oidc_models SET consumed_at = now() WHERE model = ? AND id = ? AND consumed_at IS NULL RETURNING id`, [
        this.model,
        key,
      ]);
      if (rows.length === 1) return;
      const { rows: owner } = await db.raw<{ rows: { grant_id: string | null }[] }>(`SELECT grant_id FROM oidc_models WHERE model = ? AND id = ?`, [this.model, key]);
      const grantId = owner[0]?.grant_id;
      if (grantId) {
        await db.raw(`DELETE FROM oidc_models WHERE grant_id = ? OR (model = 'Grant' AND id = ?)`, [grantId, artifactKey(grantId)]);
        await hooks.grantRevoked(grantId);
      }
      throw new errors.InvalidGrant(`${this.model} already consumed`);
    }

    async destroy(id: string): Promise<void> {
      await db.raw(`DELETE FROM oidc_models WHERE model = ? AND id = ?`, [this.model, artifactKey(id)]);
      if (this.model === 'Grant') await hooks.grantRevoked(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.raw(`DELETE FROM oidc_models WHERE grant_id = ?`, [grantId]);
    }
  };
}

type UpsertRow = { model: string; id: string; payload: AdapterPayload; expiresIn: number | undefined };

/**
 * One INSERT for every upsert of an event-loop turn (a token response saves a grant and a refresh
 * token). The rows travel as one JSON document: as text arrays, every payload would be escaped
 * again, quote by quote, into an array literal.
 *
 * A refresh token that replaces the earlier ones of its grant (keycloak/client-credentials-refresh.ts)
 * deletes them in the same statement, which keeps the batching: `replace_refresh_tokens` (a
 * migration's function) locks the rows of the statement's grants, in key order, then deletes the
 * refresh tokens, once, before the INSERT starts (the INSERT waits on its result). Statements
 * replacing the tokens of one grant thus run one after the other, and none deletes the rows it
 * writes itself.
 */
async function upsertMany(db: Db, rows: UpsertRow[]): Promise<void[]> {
  // ON CONFLICT cannot touch one row twice in a statement: the last write of a key wins.
  const unique = new Map<string, { record: StoredRow; replaces: boolean }>();
  for (const r of rows) {
    const record = {
      m: r.model,
      i: artifactKey(r.id),
      p: storablePayload(r.payload),
      g: r.payload.grantId ?? null,
      u: r.payload.uid ?? null,
      c: r.payload.userCode ?? null,
      e: r.expiresIn ?? null,
    };
    unique.set(`${record.m}\u0000${record.i}`, { record, replaces: record.g !== null && replacesEarlierRefreshTokens(r.model, r.payload) });
  }
  // Every statement writes its rows in key order (bytewise, as the function locks grants), so
  // that two of them wait on each other's rows in one order.
  const entries = [...unique].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry);
  const records = entries.map((entry) => entry.record);
  const replaced = [...new Set(entries.filter((entry) => entry.replaces).map((entry) => entry.record.g as string))];
  const insert = `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at)
     SELECT m, i, p, g, u, c, CASE WHEN e IS NULL THEN NULL ELSE now() + make_interval(secs => e) END
     FROM jsonb_to_recordset(?::jsonb) AS t(m text, i text, p jsonb, g text, u text, c text, e float8)`;
  const onConflict = `ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
       uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`;
  const json = JSON.stringify(records);
  if (replaced.length === 0) {
    await db.raw(`${insert} ${onConflict}`, [json]);
  } else {
    const grantKeys = records.filter((r) => r.m === 'Grant').map((r) => r.i);
    await db.raw(`${insert} WHERE (SELECT replace_refresh_tokens(?::text[], ?::text[])) >= 0 ${onConflict}`, [json, replaced, grantKeys]);
  }
  return rows.map(() => undefined);
}

type StoredRow = { m: string; i: string; p: AdapterPayload; g: string | null; u: string | null; c: string | null; e: number | null };

/**
 * Deletes expired artifacts, `batchSize` per statement, oldest first (inBoundedBatches), leaving
 * the rows another transaction holds (a token request saving a grant); every replica may run it.
 * The rows chosen are deleted by their physical address (a TID scan), never through a join the
 * planner could turn into a scan of the whole table.
 */
export function sweepExpired(db: Db, batchSize: number, signal?: AbortSignal): Promise<number> {
  return inBoundedBatches(
    async (limit) => {
      const { rowCount } = await db.raw<{ rowCount: number | null }>(
        `DELETE FROM oidc_models WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM oidc_models WHERE expires_at < now() ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED))`,
        [limit],
      );
      return rowCount ?? 0;
    },
    batchSize,
    signal,
  );
}

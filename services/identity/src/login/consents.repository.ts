import type { Db } from '../db/index.js';

/** What a person allowed a client that requires consent: OpenID scopes, and each API's scopes by its identifier. */
export interface StoredConsent {
  clientId: string;
  scopes: string[];
  resourceScopes: Record<string, string[]>;
  grantedAt: Date;
}

type Row = { client_id: string; scopes: string[]; resource_scopes: Record<string, string[]>; granted_at: Date };
const toConsent = (r: Row): StoredConsent => ({ clientId: r.client_id, scopes: r.scopes, resourceScopes: r.resource_scopes, grantedAt: r.granted_at });

/** The `consents` table: one row per person and client, the union of what the person allowed it; gone when revoked. */
export class ConsentsRepository {
  constructor(private readonly db: Db) {}

  async remembered(userId: string, clientId: string): Promise<StoredConsent | undefined> {
    const row = (await this.db('consents').where({ user_id: userId, client_id: clientId }).first()) as Row | undefined;
    return row ? toConsent(row) : undefined;
  }

  /** Adds to what the person allowed the client (scopes already allowed stay). */
  async remember(userId: string, clientId: string, consent: { scopes: string[]; resourceScopes: Record<string, string[]> }): Promise<void> {
    await this.db.transaction(async (trx) => {
      const current = (await trx('consents').where({ user_id: userId, client_id: clientId }).forUpdate().first()) as Row | undefined;
      const scopes = [...new Set([...(current?.scopes ?? []), ...consent.scopes])];
      const resources: Record<string, string[]> = { ...(current?.resource_scopes ?? {}) };
      for (const [api, added] of Object.entries(consent.resourceScopes)) resources[api] = [...new Set([...(resources[api] ?? []), ...added])];
      await trx('consents')
        .insert({ user_id: userId, client_id: clientId, scopes, resource_scopes: JSON.stringify(resources), granted_at: new Date() })
        .onConflict(['user_id', 'client_id'])
        .merge(['scopes', 'resource_scopes', 'granted_at']);
    });
  }

  /** Every client the person allowed something, by client id. */
  async ofUser(userId: string): Promise<StoredConsent[]> {
    const rows = (await this.db('consents').where({ user_id: userId }).orderBy('client_id')) as Row[];
    return rows.map(toConsent);
  }

  /** Forgets what the person allowed the client; false when nothing was remembered. */
  async forget(userId: string, clientId: string): Promise<boolean> {
    return (await this.db('consents').where({ user_id: userId, client_id: clientId }).delete()) > 0;
  }
}

import { batched, isUniqueViolation, isUuid } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';
import { resolveWebOrigins } from './web-origins.js';
import { type Db, keyOf, likePattern, PageBoundaries, pageOf, sortedAfter, type SortColumn, type SortDirection, type SortKey } from '../db/index.js';

export interface Client {
  /** Keycloak's internal id (a UUID): the id of the admin API's paths; never changes. */
  id: string;
  clientId: string;
  enabled: boolean;
  description: string | null;
  /** The secret sealed under KEY_LABELS.clientSecrets (client-secret-seal.ts), for read-back; null when read-back is off. */
  secretSealed: Buffer | null;
  name: string;
  secretHash: string | null;
  grantTypes: string[];
  responseTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Keycloak's "Web origins": origins (`scheme://host[:port]`) and `+` for those of the redirect URIs. */
  webOrigins: string[];
  scopes: string[];
  organizationId: string | null;
  organizationName: string | null;
  clientCredentialsRefresh: boolean;
  /** Keycloak's "access token signature algorithm" (also its ID tokens'); null: the realm default. */
  signingAlg: 'RS256' | 'ES256' | null;
  /** Keycloak's `pkce.code.challenge.method`: 'S256' makes PKCE required; null leaves it optional (public clients always need it). */
  pkceMethod: 'S256' | null;
  /** Keycloak's `consentRequired`: the person is asked before this client gets their data (off: first-party). */
  consentRequired: boolean;
  createdAt: Date;
  secretRotatedAt: Date | null;
}

type Row = {
  id: string;
  client_id: string;
  enabled: boolean;
  description: string | null;
  secret_sealed: Buffer | null;
  name: string;
  secret_hash: string | null;
  grant_types: string[];
  response_types: string[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  web_origins: string[];
  scopes: string[];
  organization_id: string | null;
  organization_name: string | null;
  client_credentials_refresh: boolean;
  signing_alg: 'RS256' | 'ES256' | null;
  pkce_method: 'S256' | null;
  consent_required: boolean;
  created_at: Date;
  secret_rotated_at: Date | null;
};

const toClient = (r: Row): Client => ({
  id: r.id,
  clientId: r.client_id,
  enabled: r.enabled,
  description: r.description,
  secretSealed: r.secret_sealed,
  name: r.name,
  secretHash: r.secret_hash,
  grantTypes: r.grant_types,
  responseTypes: r.response_types,
  redirectUris: r.redirect_uris,
  postLogoutRedirectUris: r.post_logout_redirect_uris,
  webOrigins: r.web_origins,
  scopes: r.scopes,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  clientCredentialsRefresh: r.client_credentials_refresh,
  signingAlg: r.signing_alg,
  pkceMethod: r.pkce_method,
  consentRequired: r.consent_required,
  createdAt: r.created_at,
  secretRotatedAt: r.secret_rotated_at,
});

/**
 * Every change to a client is announced on this channel by a trigger (migration
 * 20261122010000_clients_notify), with the client id as payload (`*` for all, when an
 * organization changes); each replica's ClientCache drops its copy (client-cache.ts).
 */
export const CLIENTS_CHANNEL = 'hush_identity_clients';

export type NewClient = Omit<Client, 'createdAt' | 'secretRotatedAt' | 'organizationName' | 'id' | 'enabled' | 'description' | 'secretSealed'> &
  Partial<Pick<Client, 'id' | 'enabled' | 'description' | 'secretSealed'>>;

/** What an update may change (the OAuth client id and the internal id never change). */
export type ClientChanges = Omit<NewClient, 'clientId' | 'id'>;

/** The admin API's client search: exact `clientId`, or a substring of it (`search`); `organizationId` confines it. */
export interface ClientFilter {
  clientId?: string | undefined;
  search?: string | undefined;
  organizationId?: string | undefined;
  /** The order (CLIENT_SORTS; by client id unless given), ascending unless `direction`. */
  sort?: ClientSort | undefined;
  direction?: SortDirection | undefined;
  first?: number | undefined;
  max?: number | undefined;
}

/**
 * The orders of the client list besides the client id (the unique tie of each), by the admin
 * API's field names; each has its index (db/list-sort.ts). A public client is one without a secret.
 */
export const CLIENT_SORTS = {
  name: { expr: 'lower(c.name)', type: 'text' },
  publicClient: { expr: '(c.secret_hash IS NULL)', type: 'boolean' },
  consentRequired: { expr: 'c.consent_required', type: 'boolean' },
  enabled: { expr: 'c.enabled', type: 'boolean' },
} as const satisfies Record<string, SortColumn>;
export type ClientSort = keyof typeof CLIENT_SORTS | 'clientId';

const columnsOf = (c: Partial<NewClient>) =>
  Object.fromEntries(
    Object.entries({
      id: c.id,
      client_id: c.clientId,
      name: c.name,
      enabled: c.enabled,
      description: c.description,
      secret_hash: c.secretHash,
      secret_sealed: c.secretSealed,
      grant_types: c.grantTypes,
      response_types: c.responseTypes,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris,
      web_origins: c.webOrigins,
      scopes: c.scopes,
      organization_id: c.organizationId,
      client_credentials_refresh: c.clientCredentialsRefresh,
      signing_alg: c.signingAlg,
      pkce_method: c.pkceMethod,
      consent_required: c.consentRequired,
    }).filter(([, v]) => v !== undefined),
  );

export class ClientsRepository {
  /** Where recent pages of the admin API's client lists ended (keyset paging behind first/max). */
  private readonly pages = new PageBoundaries<SortKey>();

  constructor(private readonly db: Db) {}

  private select() {
    return this.db('clients as c').leftJoin('organizations as o', 'o.id', 'c.organization_id').select('c.*', 'o.name as organization_name');
  }

  async create(c: NewClient): Promise<Client> {
    try {
      await this.db('clients').insert(columnsOf(c));
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`client ${c.clientId}`);
      throw err;
    }
    return (await this.find(c.clientId)) as Client;
  }

  /** On every token request; concurrent lookups share one query (`batched`, packages/common/src/db/batch.ts). */
  find(clientId: string): Promise<Client | undefined> {
    // PostgreSQL text cannot hold NUL, so no client has one; asking would fail the whole batch.
    if (clientId.includes('\u0000')) return Promise.resolve(undefined);
    return this.findBatched(clientId);
  }

  private readonly findBatched = batched(async (ids: string[]) => {
    const { rows } = await this.db.raw<{ rows: Row[] }>(
      `SELECT c.*, o.name AS organization_name FROM clients c LEFT JOIN organizations o ON o.id = c.organization_id WHERE c.client_id = ANY(?::text[])`,
      [[...new Set(ids)]],
    );
    const byId = new Map(rows.map((r) => [r.client_id, toClient(r)]));
    return ids.map((id) => byId.get(id));
  });

  async list(): Promise<Client[]> {
    return ((await this.select().orderBy('c.client_id')) as Row[]).map(toClient);
  }

  async findById(id: string): Promise<Client | undefined> {
    if (!isUuid(id)) return undefined;
    const row = (await this.select().where('c.id', id).first()) as Row | undefined;
    return row ? toClient(row) : undefined;
  }

  /**
   * In `sort` order (by client id unless given), then by client id; `search` as a substring through
   * the trigram index on the lowered id. A page that follows the one before it starts after that
   * page's last row (db/page-boundaries.ts, db/list-sort.ts).
   */
  async search(filter: ClientFilter): Promise<Client[]> {
    const { first, max, sort, direction = 'asc', ...list } = filter;
    const column = sort === undefined || sort === 'clientId' ? undefined : CLIENT_SORTS[sort];
    const rows = await pageOf(
      this.pages,
      JSON.stringify({ ...list, sort, direction }),
      { first, max },
      (r: Row) => keyOf(r, column, r.client_id),
      async (after, offset, limit) => {
        const q = this.select();
        if (list.clientId !== undefined) q.where('c.client_id', list.clientId);
        if (list.search) q.whereRaw(`lower(c.client_id) LIKE lower(?)`, [likePattern(list.search)]);
        if (list.organizationId !== undefined) q.where('c.organization_id', list.organizationId);
        sortedAfter(q, column, 'c.client_id', direction, after);
        if (offset) q.offset(offset);
        if (limit !== undefined) q.limit(limit);
        return (await q) as Row[];
      },
    );
    return rows.map(toClient);
  }

  async update(clientId: string, changes: Partial<ClientChanges>): Promise<boolean> {
    const columns = columnsOf(changes);
    if (Object.keys(columns).length === 0) return (await this.find(clientId)) !== undefined;
    return (await this.db('clients').where({ client_id: clientId }).update(columns)) === 1;
  }

  /** A new secret: its hash authenticates, the sealed copy (or null) is what read-back opens. */
  async setSecret(clientId: string, secretHash: string, secretSealed: Buffer | null): Promise<boolean> {
    const updated = await this.db('clients').where({ client_id: clientId }).update({ secret_hash: secretHash, secret_sealed: secretSealed, secret_rotated_at: this.db.fn.now() });
    return updated === 1;
  }

  /**
   * Whether any client registers `origin` as a web origin, directly or (`+`) as the origin of one
   * of its redirect URIs: a CORS preflight names no client, so this is all it can be checked against.
   * Redirect URIs are compared by their `scheme://authority` prefix, case-insensitively.
   */
  async isWebOrigin(origin: string): Promise<boolean> {
    if (origin.includes('\u0000')) return false;
    const { rows } = await this.db.raw<{ rows: unknown[] }>(
      `SELECT 1 FROM clients WHERE ? = ANY(web_origins)
         OR ('+' = ANY(web_origins) AND EXISTS (SELECT 1 FROM unnest(redirect_uris) u WHERE lower(substring(u FROM ?)) = lower(?)))
       LIMIT 1`,
      [origin, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', origin],
    );
    return rows.length > 0;
  }

  /** Every origin some client registers, `+` resolved (for the session iframe's frame-ancestors). */
  async allWebOrigins(): Promise<string[]> {
    const rows: Pick<Row, 'web_origins' | 'redirect_uris'>[] = await this.db('clients').select('web_origins', 'redirect_uris');
    return [...new Set(rows.flatMap((r) => resolveWebOrigins(r.web_origins, r.redirect_uris)))];
  }

  async setSecretHash(clientId: string, secretHash: string): Promise<boolean> {
    return this.setSecret(clientId, secretHash, null);
  }

  async delete(clientId: string): Promise<boolean> {
    const deleted = await this.db('clients').where({ client_id: clientId }).delete();
    return deleted === 1;
  }
}

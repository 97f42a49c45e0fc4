import { isUniqueViolation, isUuid } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';
import { sameAddress } from './addresses.js';
import { type Db, keyOf, likePattern, PageBoundaries, pageOf, sortedAfter, type SortColumn, type SortDirection, type SortKey } from '../db/index.js';

export interface User {
  id: string;
  username: string;
  email: string | null;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  enabled: boolean;
  passwordHash: string;
  organizationId: string | null;
  organizationName: string | null;
  /** Set for a client's service-account user (the holder of the client's roles); it never signs in. */
  serviceAccountClientId: string | null;
  /** Registered through the login page: signs in only once `emailVerified`. */
  selfRegistered: boolean;
  /** How many times the address changed (case aside): a link records it, and opens only while it is the same. */
  addressVersion: number;
  /** Keycloak's `locale` attribute: the language the person chose (a BCP 47 tag), or null. */
  locale: string | null;
  createdAt: Date;
}

type Row = {
  id: string;
  username: string;
  email: string | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  enabled: boolean;
  password_hash: string;
  organization_id: string | null;
  organization_name: string | null;
  service_account_client_id: string | null;
  self_registered: boolean;
  address_version: number;
  locale: string | null;
  created_at: Date;
};

const toUser = (r: Row): User => ({
  id: r.id,
  username: r.username,
  email: r.email,
  name: r.name,
  firstName: r.first_name,
  lastName: r.last_name,
  emailVerified: r.email_verified,
  enabled: r.enabled,
  passwordHash: r.password_hash,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  serviceAccountClientId: r.service_account_client_id,
  selfRegistered: r.self_registered,
  addressVersion: r.address_version,
  locale: r.locale ?? null,
  createdAt: r.created_at,
});

export interface NewUser {
  username: string;
  email?: string | null | undefined;
  name?: string | null | undefined;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  emailVerified?: boolean | undefined;
  enabled?: boolean | undefined;
  passwordHash: string;
  organizationId?: string | null | undefined;
  serviceAccountClientId?: string | undefined;
  selfRegistered?: boolean | undefined;
  locale?: string | null | undefined;
}

export type UserChanges = Partial<Omit<NewUser, 'serviceAccountClientId' | 'selfRegistered'>>;

/** What an update did to the account's address. */
export interface AddressChange {
  /** The address changed (case aside: addresses.ts). */
  moved: boolean;
  /** An address the account had proven is proven no more (it moved, or it was marked unverified). */
  unproven: boolean;
}

/**
 * The admin API's user search (Keycloak's): `username` (exactly with `exact`), `email`, `search`
 * (a substring of username, e-mail, first or last name), `enabled`; `organizationId` confines it.
 * Service-account users are never listed, as in Keycloak.
 */
export interface UserFilter {
  username?: string | undefined;
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  search?: string | undefined;
  exact?: boolean | undefined;
  enabled?: boolean | undefined;
  organizationId?: string | undefined;
  /** The order (USER_SORTS; by username unless given), ascending unless `direction`. */
  sort?: UserSort | undefined;
  direction?: SortDirection | undefined;
  first?: number | undefined;
  max?: number | undefined;
}

/**
 * The orders of the user list besides the username (the unique tie of each), by the admin API's
 * field names; each has its index (db/list-sort.ts). Names and addresses sort case aside.
 */
export const USER_SORTS = {
  email: { expr: "coalesce(lower(u.email), '')", type: 'text' },
  lastName: { expr: "coalesce(lower(u.last_name), '')", type: 'text' },
  emailVerified: { expr: 'u.email_verified', type: 'boolean' },
  enabled: { expr: 'u.enabled', type: 'boolean' },
  createdTimestamp: { expr: 'u.created_at', type: 'timestamptz' },
} as const satisfies Record<string, SortColumn>;
export type UserSort = keyof typeof USER_SORTS | 'username';

/** A filter that leaves every user in (of its organization, if it names one). */
const unfiltered = (f: UserFilter): boolean =>
  !f.search?.replace(/^\*|\*$/g, '') && f.enabled === undefined && [f.username, f.email, f.firstName, f.lastName].every((v) => v === undefined || (v === '' && !f.exact));

const columnsOf = (u: Partial<NewUser>) =>
  Object.fromEntries(
    Object.entries({
      username: u.username,
      email: u.email,
      name: u.name,
      first_name: u.firstName,
      last_name: u.lastName,
      email_verified: u.emailVerified,
      enabled: u.enabled,
      password_hash: u.passwordHash,
      organization_id: u.organizationId,
      service_account_client_id: u.serviceAccountClientId,
      self_registered: u.selfRegistered,
      locale: u.locale,
    }).filter(([, v]) => v !== undefined),
  );

export class UsersRepository {
  /** Where recent pages of the admin API's user lists ended (keyset paging behind first/max). */
  private readonly pages = new PageBoundaries<SortKey>();

  constructor(private readonly db: Db) {}

  private select() {
    return this.db('users as u').leftJoin('organizations as o', 'o.id', 'u.organization_id').select('u.*', 'o.name as organization_name');
  }

  async create(input: NewUser): Promise<User> {
    try {
      const [row] = await this.db('users').insert(columnsOf(input)).returning<{ id: string }[]>('id');
      return (await this.findById((row as { id: string }).id)) as User;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`user ${input.username}`);
      throw err;
    }
  }

  async findById(id: string): Promise<User | undefined> {
    if (!isUuid(id)) return undefined;
    const row = (await this.select().where('u.id', id).first()) as Row | undefined;
    return row ? toUser(row) : undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = (await this.select().where('u.username', username).first()) as Row | undefined;
    return row ? toUser(row) : undefined;
  }

  /**
   * The person a "Forgot password?" names: the user with this username, else the one user whose
   * e-mail address it is (case-insensitive); none when the address is shared by several.
   */
  async findByLogin(login: string): Promise<User | undefined> {
    const rows = (await this.select().whereNull('u.service_account_client_id').whereRaw('(u.username = ? OR lower(u.email) = lower(?))', [login, login]).limit(3)) as Row[];
    const byName = rows.find((r) => r.username === login);
    if (byName) return toUser(byName);
    return rows.length === 1 ? toUser(rows[0] as Row) : undefined;
  }

  /** Whether a user already has this e-mail address (case-insensitive): registration refuses a second. */
  async emailTaken(email: string): Promise<boolean> {
    return (await this.db('users').whereRaw('lower(email) = lower(?)', [email]).first('id')) !== undefined;
  }

  async findServiceAccount(clientId: string): Promise<User | undefined> {
    const row = (await this.select().where('u.service_account_client_id', clientId).first()) as Row | undefined;
    return row ? toUser(row) : undefined;
  }

  async list(): Promise<User[]> {
    return ((await this.select().whereNull('u.service_account_client_id').orderBy('u.username')) as Row[]).map(toUser);
  }

  /**
   * In `sort` order (by username unless given), then by username; a page that follows the one
   * before it starts after that page's last row (db/page-boundaries.ts, db/list-sort.ts).
   */
  async search(filter: UserFilter): Promise<User[]> {
    const { first, max, sort, direction = 'asc', ...list } = filter;
    const column = sort === undefined || sort === 'username' ? undefined : USER_SORTS[sort];
    const rows = await pageOf(
      this.pages,
      JSON.stringify({ ...list, sort, direction }),
      { first, max },
      (r: Row) => keyOf(r, column, r.username),
      async (after, offset, limit) => {
        const q = this.filtered(this.select(), list);
        sortedAfter(q, column, 'u.username', direction, after);
        if (offset) q.offset(offset);
        if (limit !== undefined) q.limit(limit);
        return (await q) as Row[];
      },
    );
    return rows.map(toUser);
  }

  /**
   * Every user (or every user of an organization): the running totals of `user_counts`, which
   * triggers on `users` keep (migration 20270520000000_user_counts), a few rows whatever the
   * number of users; with any other filter, the users that match, found through the indexes.
   */
  async count(filter: UserFilter): Promise<number> {
    if (unfiltered(filter)) {
      const q = this.db('user_counts').sum<{ n: string | null }[]>({ n: 'n' });
      if (filter.organizationId !== undefined) q.where('organization_key', filter.organizationId);
      const [row] = await q;
      return Number(row?.n ?? 0);
    }
    const [row] = await this.filtered(this.db('users as u'), filter).count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  /**
   * The filters as conditions the trigram indexes on each lowered column answer (migration
   * 20270210000000_scale_indexes): a substring as `LIKE '%...%'`, an exact value as `=`; an empty
   * substring matches every user.
   */
  private filtered<Q extends ReturnType<Db>>(q: Q, f: Omit<UserFilter, 'first' | 'max' | 'sort' | 'direction'>): Q {
    q.whereNull('u.service_account_client_id');
    const like = (column: string, value: string) => {
      if (f.exact) q.whereRaw(`lower(${column}) = lower(?)`, [value]);
      else if (value !== '') q.whereRaw(`lower(${column}) LIKE lower(?)`, [likePattern(value)]);
    };
    if (f.username !== undefined) like('u.username', f.username);
    if (f.email !== undefined) like('u.email', f.email);
    if (f.firstName !== undefined) like('u.first_name', f.firstName);
    if (f.lastName !== undefined) like('u.last_name', f.lastName);
    const s = f.search?.replace(/^\*|\*$/g, '');
    if (s) {
      const p = likePattern(s);
      // The joined columns find the candidates through one trigram index (migration
      // 20270601000000_user_search_indexes, the same expression); the four conditions decide.
      q.whereRaw(`lower(coalesce(u.username, '') || ' ' || coalesce(u.email, '') || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) LIKE lower(?)`, [p]);
      q.whereRaw(`(lower(u.username) LIKE lower(?) OR lower(u.email) LIKE lower(?) OR lower(u.first_name) LIKE lower(?) OR lower(u.last_name) LIKE lower(?))`, [p, p, p, p]);
    }
    if (f.enabled !== undefined) q.where('u.enabled', f.enabled);
    if (f.organizationId !== undefined) q.where('u.organization_id', f.organizationId);
    return q;
  }

  /**
   * Changes the user; undefined when there is none. The address follows one rule whoever changes
   * it (account console, account REST API, admin API), with the row locked: a new address (case
   * aside) is unverified unless `emailVerified` comes with it (an administrator vouching for it),
   * and raises `address_version`, which every link mailed before records: none of them opens
   * again (account-links/), even if the account moves back.
   */
  async update(id: string, changes: UserChanges): Promise<AddressChange | undefined> {
    if (!isUuid(id)) return undefined;
    try {
      return await this.db.transaction(async (trx) => {
        const before = await trx<Row>('users').where({ id }).forUpdate().first('email', 'email_verified');
        if (!before) return undefined;
        const moved = changes.email !== undefined && !sameAddress(before.email, changes.email);
        const verified = moved ? (changes.emailVerified ?? false) : changes.emailVerified;
        const columns = { ...columnsOf({ ...changes, emailVerified: verified }), ...(moved ? { address_version: trx.raw('address_version + 1') } : {}) };
        if (Object.keys(columns).length > 0) await trx('users').where({ id }).update(columns);
        return { moved, unproven: before.email_verified && (moved || verified === false) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`user ${changes.username ?? id}`);
      throw err;
    }
  }

  /** Marks the address verified if it has not changed since `addressVersion` (a link's); false when it has. */
  async verifyAddress(id: string, addressVersion: number): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.db('users').where({ id, address_version: addressVersion }).whereNotNull('email').update({ email_verified: true })) === 1;
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.db('users').where({ id }).update({ password_hash: passwordHash })) === 1;
  }

  async delete(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.db('users').where({ id }).delete()) === 1;
  }

  /** Members of an organization (Keycloak's MemberRepresentation is a user's). */
  async members(organizationId: string, page: { first?: number | undefined; max?: number | undefined; search?: string | undefined }): Promise<User[]> {
    return this.search({ organizationId, first: page.first, max: page.max, search: page.search });
  }

  /** Moves the user into the organization (null: out of any) only from `from` (compare-and-set). */
  async setOrganization(id: string, organizationId: string | null, from: string | null): Promise<boolean> {
    if (!isUuid(id)) return false;
    const q = this.db('users').where({ id });
    if (from === null) q.whereNull('organization_id');
    else q.where({ organization_id: from });
    return (await q.update({ organization_id: organizationId })) === 1;
  }
}

import { isUniqueViolation, isUuid } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';
import type { Db } from '../db/index.js';

export interface Organization {
  id: string;
  name: string;
  /** Keycloak 26's URL-safe alias (unique). */
  alias: string;
  description: string | null;
  enabled: boolean;
  domains: string[];
  /** Members sign in with a second factor (TOTP or a passkey); one without is sent to enrol first. */
  requireSecondFactor: boolean;
  createdAt: Date;
}

type Row = { id: string; name: string; alias: string; description: string | null; enabled: boolean; domains: string[]; require_second_factor: boolean; created_at: Date };
const toOrganization = (r: Row): Organization => ({
  id: r.id,
  name: r.name,
  alias: r.alias,
  description: r.description,
  enabled: r.enabled,
  domains: r.domains,
  requireSecondFactor: r.require_second_factor,
  createdAt: r.created_at,
});

export type OrganizationFields = Pick<Organization, 'name' | 'alias' | 'description' | 'enabled' | 'domains'> & { requireSecondFactor?: boolean | undefined };

const columnsOf = ({ requireSecondFactor, ...fields }: OrganizationFields) => ({
  ...fields,
  ...(requireSecondFactor === undefined ? {} : { require_second_factor: requireSecondFactor }),
});

export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  async create(input: string | OrganizationFields): Promise<Organization> {
    const fields = typeof input === 'string' ? { name: input, alias: aliasOf(input) } : columnsOf(input);
    try {
      const [row] = await this.db<Row>('organizations').insert(fields).returning('*');
      return toOrganization(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`organization ${fields.name}`);
      throw err;
    }
  }

  async list(): Promise<Organization[]> {
    return (await this.db<Row>('organizations').orderBy('name')).map(toOrganization);
  }

  /** Keycloak's search: a substring of the name or alias (exactly with `exact`). */
  async search(filter: {
    search?: string | undefined;
    exact?: boolean | undefined;
    id?: string | undefined;
    first?: number | undefined;
    max?: number | undefined;
  }): Promise<Organization[]> {
    // An id that is no UUID names no organization (and PostgreSQL would refuse the comparison).
    if (filter.id !== undefined && !isUuid(filter.id)) return [];
    const q = this.db<Row>('organizations').orderBy('name');
    if (filter.id !== undefined) q.where({ id: filter.id });
    if (filter.search !== undefined) {
      const s = filter.search;
      if (filter.exact) q.whereRaw('(name = ? OR alias = ?)', [s, s]);
      else q.whereRaw('(strpos(lower(name), lower(?)) > 0 OR strpos(lower(alias), lower(?)) > 0)', [s, s]);
    }
    if (filter.first) q.offset(filter.first);
    if (filter.max !== undefined && filter.max >= 0) q.limit(filter.max);
    return (await q).map(toOrganization);
  }

  /** By id or by name, so the CLI accepts either. */
  async find(idOrName: string): Promise<Organization | undefined> {
    const row = await this.db<Row>('organizations')
      .where(isUuid(idOrName) ? { id: idOrName } : { name: idOrName })
      .first();
    return row ? toOrganization(row) : undefined;
  }

  async update(id: string, fields: OrganizationFields): Promise<boolean> {
    if (!isUuid(id)) return false;
    try {
      return (await this.db('organizations').where({ id }).update(columnsOf(fields))) === 1;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`organization ${fields.name}`);
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.db('organizations').where({ id }).delete()) === 1;
  }
}

/** A default alias: the name in lower case with runs of other characters as `-`. */
export function aliasOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'org'
  );
}

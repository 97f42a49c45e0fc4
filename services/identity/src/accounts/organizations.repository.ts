import type { Db } from '../db/knex.js';
import { isUniqueViolation, isUuid } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

type Row = { id: string; name: string; created_at: Date };
const toOrganization = (r: Row): Organization => ({ id: r.id, name: r.name, createdAt: r.created_at });

export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  async create(name: string): Promise<Organization> {
    try {
      const [row] = await this.db<Row>('organizations').insert({ name }).returning('*');
      return toOrganization(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`organization ${name}`);
      throw err;
    }
  }

  async list(): Promise<Organization[]> {
    return (await this.db<Row>('organizations').orderBy('name')).map(toOrganization);
  }

  /** By id or by name, so the CLI accepts either. */
  async find(idOrName: string): Promise<Organization | undefined> {
    const row = await this.db<Row>('organizations')
      .where(isUuid(idOrName) ? { id: idOrName } : { name: idOrName })
      .first();
    return row ? toOrganization(row) : undefined;
  }
}

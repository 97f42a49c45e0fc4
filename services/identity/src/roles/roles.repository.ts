import { isUniqueViolation, isUuid } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';
import type { Db } from '../db/index.js';

/** A realm role (container `realm`) or a role of the `realm-management` client. */
export interface Role {
  id: string;
  name: string;
  description: string | null;
  container: string;
}

type Row = { id: string; name: string; description: string | null; container: string };
const toRole = (r: Row): Role => ({ id: r.id, name: r.name, description: r.description, container: r.container });

export class RolesRepository {
  constructor(private readonly db: Db) {}

  async list(container: string, page: { search?: string | undefined; first?: number | undefined; max?: number | undefined } = {}): Promise<Role[]> {
    const q = this.db<Row>('roles').where({ container }).orderBy('name');
    if (page.search !== undefined) q.whereRaw('strpos(lower(name), lower(?)) > 0', [page.search]);
    if (page.first) q.offset(page.first);
    if (page.max !== undefined && page.max >= 0) q.limit(page.max);
    return (await q).map(toRole);
  }

  async findByName(container: string, name: string): Promise<Role | undefined> {
    const row = await this.db<Row>('roles').where({ container, name }).first();
    return row ? toRole(row) : undefined;
  }

  async findById(id: string): Promise<Role | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.db<Row>('roles').where({ id }).first();
    return row ? toRole(row) : undefined;
  }

  async create(container: string, name: string, description: string | null): Promise<Role> {
    try {
      const [row] = await this.db<Row>('roles').insert({ container, name, description }).returning('*');
      return toRole(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`Role with name ${name}`);
      throw err;
    }
  }

  async update(id: string, fields: { name: string; description: string | null }): Promise<boolean> {
    try {
      return (await this.db('roles').where({ id }).update(fields)) === 1;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`Role with name ${fields.name}`);
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db('roles').where({ id }).delete()) === 1;
  }

  /** The user's directly mapped roles of `container`. */
  async ofUser(userId: string, container: string): Promise<Role[]> {
    const rows = await this.db('roles as r')
      .join('user_roles as m', 'm.role_id', 'r.id')
      .where({ 'm.user_id': userId, 'r.container': container })
      .select<Row[]>('r.*')
      .orderBy('r.name');
    return rows.map(toRole);
  }

  /** The names of the roles of `container` each of these users holds directly; users holding none are left out. */
  async namesOfUsers(userIds: readonly string[], container: string): Promise<Map<string, string[]>> {
    const ids = userIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await this.db('user_roles as m')
      .join('roles as r', 'r.id', 'm.role_id')
      .where('r.container', container)
      .whereIn('m.user_id', ids)
      .select<{ owner: string; name: string }[]>('m.user_id as owner', 'r.name');
    return namesByOwner(rows);
  }

  /** The same for the service-account users of these clients, by client id (a client's roles are its service account's). */
  async namesOfServiceAccounts(clientIds: readonly string[], container: string): Promise<Map<string, string[]>> {
    if (clientIds.length === 0) return new Map();
    const rows = await this.db('user_roles as m')
      .join('roles as r', 'r.id', 'm.role_id')
      .join('users as u', 'u.id', 'm.user_id')
      .where('r.container', container)
      .whereIn('u.service_account_client_id', clientIds)
      .select<{ owner: string; name: string }[]>('u.service_account_client_id as owner', 'r.name');
    return namesByOwner(rows);
  }

  async addMappings(userId: string, roleIds: string[]): Promise<void> {
    if (roleIds.length === 0) return;
    await this.db('user_roles')
      .insert(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
      .onConflict(['user_id', 'role_id'])
      .ignore();
  }

  async removeMappings(userId: string, roleIds: string[]): Promise<void> {
    await this.db('user_roles').where({ user_id: userId }).whereIn('role_id', roleIds).delete();
  }

  /** The users holding the role (Keycloak's GET /roles/{name}/users). */
  async usersWith(roleId: string): Promise<string[]> {
    return (await this.db('user_roles').where({ role_id: roleId }).select<{ user_id: string }[]>('user_id')).map((r) => r.user_id);
  }
}

function namesByOwner(rows: readonly { owner: string; name: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { owner, name } of rows) out.set(owner, [...(out.get(owner) ?? []), name]);
  return out;
}

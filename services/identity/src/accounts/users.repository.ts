import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';

export interface User {
  id: string;
  username: string;
  email: string | null;
  name: string | null;
  passwordHash: string;
  organizationId: string | null;
  organizationName: string | null;
  createdAt: Date;
}

type Row = {
  id: string;
  username: string;
  email: string | null;
  name: string | null;
  password_hash: string;
  organization_id: string | null;
  organization_name: string | null;
  created_at: Date;
};

const toUser = (r: Row): User => ({
  id: r.id,
  username: r.username,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  createdAt: r.created_at,
});

export class UsersRepository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db('users as u').leftJoin('organizations as o', 'o.id', 'u.organization_id').select('u.*', 'o.name as organization_name');
  }

  async create(input: { username: string; email?: string | undefined; name?: string | undefined; passwordHash: string; organizationId?: string | undefined }): Promise<User> {
    try {
      const [row] = await this.db('users')
        .insert({
          username: input.username,
          email: input.email ?? null,
          name: input.name ?? null,
          password_hash: input.passwordHash,
          organization_id: input.organizationId ?? null,
        })
        .returning<{ id: string }[]>('id');
      return (await this.findById((row as { id: string }).id)) as User;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`user ${input.username}`);
      throw err;
    }
  }

  async findById(id: string): Promise<User | undefined> {
    const row = (await this.select().where('u.id', id).first()) as Row | undefined;
    return row ? toUser(row) : undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = (await this.select().where('u.username', username).first()) as Row | undefined;
    return row ? toUser(row) : undefined;
  }

  async list(): Promise<User[]> {
    return ((await this.select().orderBy('u.username')) as Row[]).map(toUser);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    return (await this.db('users').where({ id }).update({ password_hash: passwordHash })) === 1;
  }
}

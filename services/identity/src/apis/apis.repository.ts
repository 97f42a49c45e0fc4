import { isUniqueViolation } from '@hush/common';
import { AlreadyExistsError } from '../errors.js';
import type { Db } from '../db/index.js';

/** A resource server: the `aud` of its access tokens, the scopes it understands, their lifetime. */
export interface Api {
  id: string;
  identifier: string;
  name: string;
  scopes: string[];
  accessTokenTtl: number;
  createdAt: Date;
}

type Row = { id: string; identifier: string; name: string; scopes: string[]; access_token_ttl: number; created_at: Date };
const toApi = (r: Row): Api => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  accessTokenTtl: r.access_token_ttl,
  createdAt: r.created_at,
});

export class ApisRepository {
  constructor(private readonly db: Db) {}

  async create(input: { identifier: string; name: string; scopes: string[]; accessTokenTtl: number }): Promise<Api> {
    try {
      const [row] = await this.db<Row>('apis')
        .insert({ identifier: input.identifier, name: input.name, scopes: input.scopes, access_token_ttl: input.accessTokenTtl })
        .returning('*');
      return toApi(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError(`api ${input.identifier}`);
      throw err;
    }
  }

  async list(): Promise<Api[]> {
    return (await this.db<Row>('apis').orderBy('identifier')).map(toApi);
  }

  async findByIdentifier(identifier: string): Promise<Api | undefined> {
    const row = await this.db<Row>('apis').where({ identifier }).first();
    return row ? toApi(row) : undefined;
  }

  /** APIs that already define any of these scopes (scope names are unique across APIs). */
  async findOwnersOfScopes(scopes: string[]): Promise<Api[]> {
    return (await this.db<Row>('apis').whereRaw('scopes && ?::text[]', [scopes])).map(toApi);
  }

  async maxAccessTokenTtl(): Promise<number> {
    const row = await this.db('apis').max<{ max: number | null }>('access_token_ttl as max').first();
    return row?.max ?? 0;
  }
}

import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations.js';

export type Db = Knex;

// bigint (int8) ids come back as strings by default; ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDb(url: string, poolMax = 20): Db {
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: poolMax } });
}

/** Migrations are imported statically (not found on disk) so the same list runs from src under Jest and from dist. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function migrateDown(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}

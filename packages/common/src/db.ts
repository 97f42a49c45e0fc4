import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

export interface DbOptions {
  /**
   * Parse bigint (int8) columns as numbers instead of strings, on this pool's connections only
   * (not through pg's global parsers, which every pool of the process would share). For schemas
   * whose bigint values stay far below 2^53.
   */
  int8AsNumber?: boolean;
}

/** A migration module: each service keeps its own under `migrations/`, with `up` and `down`. */
export type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

export function createDb(url: string, poolMax = 20, options: DbOptions = {}): Db {
  const connection = options.int8AsNumber ? { connectionString: url, types: { getTypeParser: int8AsNumber } } : url;
  return knexFactory({ client: 'pg', connection, pool: { min: 0, max: poolMax } });
}

/** pg's parsers, but text-format int8 (what pg would hand over as a string) becomes a number. */
function int8AsNumber(oid: number, format: string): unknown {
  return oid === (pg.types.builtins.INT8 as number) && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format as 'text' | 'binary');
}

/**
 * A knex migration source over modules imported statically (not found on disk), so the same list
 * runs from src under Jest and from dist. Migrations run in the order of their names.
 */
export function staticMigrations(migrations: Record<string, Migration>): Knex.MigrationSource<string> {
  return {
    getMigrations: () => Promise.resolve(Object.keys(migrations).sort()),
    getMigrationName: (name) => name,
    getMigration: (name) => Promise.resolve(migrations[name] as Migration),
  };
}

/** A PostgreSQL unique_violation (23505; https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

/** Applies the pending migrations; returns the names of those it applied. */
export async function applyMigrations(db: Db, migrationSource: Knex.MigrationSource<string>): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

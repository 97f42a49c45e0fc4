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
  /**
   * The longest (ms) a request may wait on the database: for a pooled connection, to connect, and
   * for one statement. Unset (the admin CLIs, migrations): no limit.
   */
  timeoutMs?: number;
}

/** A migration module: each service keeps its own under `migrations/`, with `up` and `down`. */
export type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

export function createDb(url: string, poolMax = 20, options: DbOptions = {}): Db {
  const connection: Knex.PgConnectionConfig = { connectionString: url };
  if (options.int8AsNumber) connection.types = { getTypeParser: int8AsNumber };
  const timeoutMs = options.timeoutMs;
  if (!timeoutMs) return knexFactory({ client: 'pg', connection: options.int8AsNumber ? connection : url, pool: { min: 0, max: poolMax } });
  // The server cancels a slow statement itself (the connection stays usable); a server that does
  // not answer at all (stopped, partitioned) cannot, so the client gives up a little later.
  connection.statement_timeout = timeoutMs;
  connection.query_timeout = timeoutMs + QUERY_TIMEOUT_MARGIN_MS;
  connection.connectionTimeoutMillis = timeoutMs;
  return knexFactory({
    client: 'pg',
    connection,
    acquireConnectionTimeout: timeoutMs,
    // knex warns on the console of every failed connection (attempt, or one found dead); each
    // also fails its query, which the caller answers (503) and the outage log reports once.
    log: { warn: ignore },
    pool: { min: 0, max: poolMax, afterCreate: discardOnReadTimeout, validate: (client: pg.Client) => !timedOut.has(client) },
  });
}

const ignore = (): void => undefined;

/** How much longer the client waits than the server's statement_timeout before it gives up on the server. */
const QUERY_TIMEOUT_MARGIN_MS = 500;

const timedOut = new WeakSet<pg.Client>();

/**
 * pg's query_timeout fails the query but keeps the connection, whose server may answer the
 * stalled statement at any time, or never: back in the pool, it would hang the next request.
 * Such a connection is marked before the query's caller hears of the failure (the pool's
 * `validate` then refuses to hand it out again) and its socket closed.
 */
function discardOnReadTimeout(client: pg.Client, done: (err: Error | null, client: pg.Client) => void): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: Error | null, result: unknown) => {
        if (err?.message === 'Query read timeout') {
          timedOut.add(client);
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        }
        (callback as (e: Error | null, r: unknown) => void)(err, result);
      };
    }
    return query(...args);
  };
  done(null, client);
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

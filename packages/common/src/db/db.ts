import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { DatabaseGate, DEADLINE, installGate, READ_TIMEOUT_MARGIN_MS, type Deadlined } from './db-gate.js';
import { isTimeoutFailure } from '../logging/outage.js';

export type Db = Knex;

export interface DbOptions {
  /**
   * Parse bigint (int8) columns as numbers instead of strings, on this pool's connections only
   * (not through pg's global parsers, which every pool of the process would share). For schemas
   * whose bigint values stay far below 2^53.
   */
  int8AsNumber?: boolean;
  /**
   * The longest (ms) a request may wait on the database: for a pooled connection and its statement
   * together (db-gate.ts: requests that cannot be served in time are refused at once), to
   * connect, and for one statement. Unset (the admin CLIs, migrations): no limit.
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
  connection.connectionTimeoutMillis = timeoutMs;
  const readTimeoutMs = timeoutMs + READ_TIMEOUT_MARGIN_MS;
  const gate = new DatabaseGate(timeoutMs, poolMax);
  const db = knexFactory({
    client: 'pg',
    connection,
    acquireConnectionTimeout: timeoutMs,
    // knex warns on the console of every failed connection (attempt, or one found dead); each
    // also fails its query, which the caller answers (503) and the outage log reports once.
    log: { warn: ignore },
    pool: {
      min: 0,
      max: poolMax,
      afterCreate: (client: pg.Client, done: Done) => done(null, guardReads(client, readTimeoutMs, gate)),
      validate: (client: pg.Client) => !timedOut.has(client),
    },
  });
  installGate(db, gate, isTimeoutFailure);
  return db;
}

const ignore = (): void => undefined;

type Done = (err: Error | null, client: pg.Client) => void;
type Callback = (err: Error | null, result?: unknown) => void;
type Queryable = Deadlined & { query: (...args: unknown[]) => unknown; connection: { stream: { destroy(): void } } };

const timedOut = new WeakSet<pg.Client>();

/**
 * The client's own limit on each statement (knex passes every query with a callback): past the
 * deadline of the connection's current use (db-gate.ts: the request's wait for it counted) plus
 * the margin, or `ms` for a connection used outside the gate, without an answer the query fails with "Query read timeout" and its connection is done
 * for, since the server may answer the stalled statement at any time, or never: back in the
 * pool it would hang the next request. The connection is marked (the pool's `validate` then
 * refuses it) and its socket closed before the caller hears of the failure.
 *
 * Not pg's own `query_timeout`: pg installs that by assigning a new closure to the query
 * (`query.callback = (err, res) => ...`), and V8 allocates a function literal assigned to a
 * property straight in the old generation (it expects a method). Every query then left an
 * old-generation closure whose context held the query, its result and the caller's callback:
 * the young-generation collections kept all of it (the request that waited on it included)
 * until the next full collection (measured with bench/gc-promotion.mjs).
 * Here the callback is a declared function, which V8 allocates young like any other.
 */
function guardReads(client: pg.Client, ms: number, gate: DatabaseGate): pg.Client {
  const target = client as unknown as Queryable;
  const query = target.query.bind(client);
  const guarded = (...args: unknown[]): unknown => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return query(...args);
    const deadline = target[DEADLINE];
    const left = deadline === undefined ? ms : deadline + READ_TIMEOUT_MARGIN_MS - Date.now();
    if (left <= 0) {
      // The wait for the connection used the whole budget: nothing sent, the connection stays good.
      setImmediate(callback as Callback, new Error('Query read timeout: the deadline passed before the query was sent'));
      return undefined;
    }
    let answered = false;
    const answer: Callback = (err, result) => {
      if (answered) return; // the stalled query, failed again when its socket closed
      answered = true;
      clearTimeout(timer);
      if (!err) gate.breaker.succeeded();
      (callback as Callback)(err, result);
    };
    const stalled = () => {
      timedOut.add(client);
      gate.breaker.timedOut(Date.now());
      target.connection.stream.destroy();
      answer(new Error('Query read timeout'));
    };
    const timer = setTimeout(stalled, left);
    args[last] = answer;
    try {
      return query(...args);
    } catch (err) {
      clearTimeout(timer);
      throw err;
    }
  };
  target.query = guarded;
  return client;
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

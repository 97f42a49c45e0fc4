import type { Knex } from 'knex';
import { CircuitBreaker, DependencyShedError } from '../limits/circuit-breaker.js';

/** How much longer the client waits than the server's statement_timeout before it gives up on the server. */
export const READ_TIMEOUT_MARGIN_MS = 500;

/** Weight of the newest sample in the moving average of how long a query holds its connection. */
const HOLD_SAMPLE_WEIGHT = 0.1;

/**
 * One deadline per use of the pool, and the refusals that keep requests from queueing past it:
 *
 * - the wait for a pooled connection counts against the same budget as the query (`timeoutMs`):
 *   a connection leaves `acquire` with the time it must be answered by, which the client-side
 *   read timeout (db.ts) uses instead of a fresh `timeoutMs`;
 * - a request the pool cannot serve in time is refused at once (load shedding): the queue ahead
 *   of it, at the pool's recent pace, would take longer than the whole budget;
 * - after a query or an acquire timed out, the circuit opens (circuit-breaker.ts): requests are
 *   refused at once instead of each waiting out the timeout, and one at a time tries again.
 *
 * All of it is a few timestamp comparisons on the pool's acquire and release, not a wrapper
 * around each query.
 */
export class DatabaseGate {
  readonly breaker: CircuitBreaker;
  /** Moving average (ms) of how long a query holds its connection. */
  private holdMs = 0;

  constructor(
    readonly timeoutMs: number,
    private readonly poolMax: number,
  ) {
    this.breaker = new CircuitBreaker(Math.min(timeoutMs, 1000), timeoutMs + READ_TIMEOUT_MARGIN_MS);
  }

  /** Throws `DependencyShedError` when a query arriving now with `pending` acquires ahead of it should not wait. */
  admit(now: number, pending: number): void {
    if (pending >= this.poolMax && ((pending + 1) / this.poolMax) * this.holdMs > this.timeoutMs) {
      throw new DependencyShedError('database', 'the pool cannot serve it in time');
    }
    if (!this.breaker.allows(now)) throw new DependencyShedError('database', 'it did not answer in time a moment ago');
  }

  released(heldMs: number): void {
    this.holdMs += (heldMs - this.holdMs) * HOLD_SAMPLE_WEIGHT;
  }
}

/** Where a connection keeps the time its current use must be answered by, and when it was acquired. */
export const DEADLINE = Symbol('deadline');
const ACQUIRED = Symbol('acquired');
export type Deadlined = { [DEADLINE]?: number; [ACQUIRED]?: number };

type Pool = { numPendingAcquires(): number };
type KnexClient = {
  pool: Pool | undefined;
  acquireConnection(): Promise<Deadlined>;
  releaseConnection(connection: Deadlined): Promise<void>;
};

const gates = new WeakMap<Knex, DatabaseGate>();

/** The gate of a pool made with a timeout (createDb), for readiness; undefined otherwise. */
export function databaseGate(db: Knex): DatabaseGate | undefined {
  return gates.get(db);
}

/** Puts `gate` on `db`'s acquire and release (knex's client methods, which every query and transaction goes through). */
export function installGate(db: Knex, gate: DatabaseGate, isTimeout: (err: unknown) => boolean): void {
  gates.set(db, gate);
  const client = db.client as KnexClient;
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);

  async function acquireWithinDeadline(): Promise<Deadlined> {
    const started = Date.now();
    gate.admit(started, client.pool?.numPendingAcquires() ?? 0);
    let connection: Deadlined;
    try {
      connection = await acquire();
    } catch (err) {
      if (isTimeout(err)) gate.breaker.timedOut(Date.now());
      throw err;
    }
    connection[DEADLINE] = started + gate.timeoutMs;
    connection[ACQUIRED] = Date.now();
    return connection;
  }

  function releaseMeasured(connection: Deadlined): Promise<void> {
    const acquired = connection[ACQUIRED];
    if (acquired !== undefined) gate.released(Date.now() - acquired);
    connection[DEADLINE] = undefined;
    return release(connection);
  }

  client.acquireConnection = acquireWithinDeadline;
  client.releaseConnection = releaseMeasured;
}

/**
 * The database's readiness check, from what the gate tracks: while the circuit is open it fails
 * at once (the gate refuses the probe), and a probe never queues behind another: concurrent
 * /readyz requests share the one `select 1` under way, which is the circuit's trial when one is due.
 */
export function databaseReadiness(db: Knex): () => Promise<unknown> {
  let probe: Promise<unknown> | undefined;
  const done = () => {
    probe = undefined;
  };
  return () => (probe ??= Promise.resolve(db.raw('select 1')).finally(done));
}

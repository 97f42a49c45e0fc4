import { createDb } from './db.js';
import { databaseGate } from './db-gate.js';

// Against the real PostgreSQL the other tests use; only queries constants, creates nothing.
const url = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('createDb', () => {
  it('with int8AsNumber, returns bigint columns as numbers on that pool only', async () => {
    const numbers = createDb(url, 1, { int8AsNumber: true });
    const strings = createDb(url, 1);
    try {
      const query = 'SELECT 9007199254740::int8 AS n, 5::int4 AS i';
      expect((await numbers.raw(query)).rows[0]).toEqual({ n: 9007199254740, i: 5 });
      expect((await strings.raw(query)).rows[0]).toEqual({ n: '9007199254740', i: 5 });
    } finally {
      await Promise.all([numbers.destroy(), strings.destroy()]);
    }
  });

  it('with timeoutMs, lets the server cancel a slow statement and keeps using the connection', async () => {
    const db = createDb(url, 1, { timeoutMs: 300 });
    try {
      await expect(db.raw('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
      expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('with timeoutMs, gives up on a server that does not answer and never reuses that connection', async () => {
    const db = createDb(url, 1, { timeoutMs: 300 });
    try {
      // The server's own limit off on the pool's only connection: only the client's is left, as with a hung server.
      await db.raw('SET statement_timeout = 0');
      const hung = (await db.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      // The server would answer in 3 s: a read timeout is the client giving up before it did.
      await expect(db.raw('SELECT pg_sleep(3)')).rejects.toThrow(/Query read timeout/);
      // The circuit is open for its cool-down (min(timeoutMs, 1 s)) after a timeout; past it,
      // back in the pool, that connection would still be busy with the sleep: the next query gets a new one.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = (await db.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      expect(next).not.toBe(hung);
    } finally {
      await db.destroy();
    }
  });

  it('with timeoutMs, counts the wait for a pooled connection against the same deadline as the query', async () => {
    const db = createDb(url, 1, { timeoutMs: 600 });
    try {
      await db.raw('SET statement_timeout = 0');
      // The only connection is busy for 400 ms; the next query waits for it, then has at most the
      // 200 ms left of its deadline and the 500 ms margin: its 900 ms statement cannot finish. With
      // a fresh deadline after the wait (600 ms and the margin) it would. A slower machine only
      // makes the wait longer, and the query then fails the same way, or already waiting for the connection.
      const busy = db.raw('SELECT pg_sleep(0.4)').then(
        () => undefined,
        () => undefined,
      );
      await expect(db.raw('SELECT pg_sleep(0.9)')).rejects.toThrow(/Query read timeout|Timeout acquiring a connection/);
      await busy;
    } finally {
      await db.destroy();
    }
  });

  it('with timeoutMs, once a query timed out, refuses the next ones at once until a trial succeeds', async () => {
    const db = createDb(url, 2, { timeoutMs: 200 });
    try {
      await db.raw('SET statement_timeout = 0');
      await expect(db.raw('SELECT pg_sleep(3)')).rejects.toThrow(/Query read timeout/);
      // Refused by the gate before any connection is asked for: not a timeout, a shed.
      await expect(db.raw('SELECT 1')).rejects.toMatchObject({ name: 'DependencyShedError', dependency: 'database' });
      expect(databaseGate(db)?.breaker.isOpen).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(databaseGate(db)?.breaker.isOpen).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});

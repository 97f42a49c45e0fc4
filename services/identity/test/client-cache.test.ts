import pg from 'pg';
import { createLogger } from '@hush/common';
import { ClientCache } from '../src/clients/client-cache.js';
import { deleteClient } from '../src/clients/clients.js';
import { CLIENTS_CHANNEL, type Client } from '../src/clients/clients.repository.js';
import { createContext } from '../src/context.js';
import { hashClientSecret, newClientSecret } from '../src/clients/client-secret.js';
import { createDb, type Db } from '../src/db/knex.js';
import { postForm } from '@hush/testing';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

// Client records are cached in the service's memory (src/clients/client-cache.ts). These tests
// change clients the way another process or replica would (the CLI, another connection pool, raw
// SQL) and prove that the service stops accepting the old secret at once.

let h: Harness;
let tokenUrl: string;
let other: Db;

beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  other = createDb(h.config.DATABASE_URL, 2);
});
afterAll(async () => {
  await other.destroy();
  await h.close();
});

const token = (c: { read: string; clientId: string }, secret: string) =>
  postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: secret });

/**
 * Polls until the request fails with invalid_client (successes are not failures, so the rate
 * limiter stays quiet). A cached entry is re-read after 30 s at the latest (ClientCache's default
 * maximum age); refused within a third of that, the change reached the cache by its notification,
 * whatever the machine's load, and not by the entry's age.
 */
async function refusedBeforeExpiry(request: () => ReturnType<typeof token>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await request();
    if (res.status === 401) {
      expect(res.body['error']).toBe('invalid_client');
      return;
    }
    expect(res.status).toBe(200);
    if (Date.now() > deadline) throw new Error('still accepted after 10 s: the change did not reach the cache');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ClientCache', () => {
  const record = (clientId: string) => ({ clientId }) as unknown as Client;
  const counting = () => {
    const calls: string[] = [];
    return { calls, find: (id: string) => (calls.push(id), Promise.resolve(record(id))) };
  };
  const silent = createLogger({ name: 'test', level: 'silent' });

  it('serves a second lookup from memory, and reads through while its listener is down', async () => {
    const source = counting();
    const cache = new ClientCache(source, h.config.DATABASE_URL, silent, { reconnectMs: 60_000 });
    await cache.start();
    try {
      await cache.find('a');
      await cache.find('a');
      expect(source.calls).toEqual(['a']);

      await other.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'identity client cache'`);
      // Reconnection is a minute away: only dropping everything at the loss explains a read-through.
      for (let i = 0; i < 50 && source.calls.length < 2; i++) {
        await cache.find('a');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(source.calls.length).toBeGreaterThanOrEqual(2);
      const before = source.calls.length;
      await cache.find('a');
      expect(source.calls.length).toBe(before + 1);
    } finally {
      cache.stop();
    }
  });

  it('does not keep a lookup that was in flight when a change was announced', async () => {
    let release: (() => void) | undefined;
    const calls: string[] = [];
    const source = {
      find: async (id: string) => {
        calls.push(id);
        if (calls.length === 1) await new Promise<void>((r) => (release = r));
        return record(id);
      },
    };
    const cache = new ClientCache(source, h.config.DATABASE_URL, silent);
    await cache.start();
    try {
      const first = cache.find('b');
      await other.raw('SELECT pg_notify(?, ?)', [CLIENTS_CHANNEL, 'b']);
      await new Promise((r) => setTimeout(r, 200)); // the notification reaches the listener
      release?.();
      await first;
      await cache.find('b');
      expect(calls).toEqual(['b', 'b']);
      await cache.find('b');
      expect(calls).toEqual(['b', 'b']);
    } finally {
      cache.stop();
    }
  });
});

describe('client records cached in memory', () => {
  it('when the secret is rotated by the admin CLI, then the old secret is refused at once (notified) and the new one works', async () => {
    const c = await createApiAndClient(h);
    expect((await token(c, c.clientSecret)).status).toBe(200); // now cached

    const rotated = await h.cli<{ client_secret: string }>('clients', 'rotate-secret', c.clientId);
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
    const res = await token(c, rotated.client_secret);
    expect(res.status).toBe(200);
    expect(res.body['refresh_token']).toEqual(expect.any(String));
  });

  it('when the client is deleted through another connection pool (another replica), then its secret is refused at once (notified)', async () => {
    const c = await createApiAndClient(h);
    expect((await token(c, c.clientSecret)).status).toBe(200);

    const context = createContext(h.config, other);
    await deleteClient(context, c.clientId).finally(() => context.revocations.close());
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
  });

  it('when an operator changes the secret by hand in SQL, then the database itself announces it and the old secret is refused at once', async () => {
    const c = await createApiAndClient(h);
    expect((await token(c, c.clientSecret)).status).toBe(200);

    await other.raw('UPDATE clients SET secret_hash = ? WHERE client_id = ?', [newClientSecret().hash, c.clientId]);
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
  });

  it('when the client is deleted with the admin CLI, then its secret is refused at once (notified)', async () => {
    const c = await createApiAndClient(h);
    expect((await token(c, c.clientSecret)).status).toBe(200);

    expect(await h.cli('clients', 'delete', c.clientId)).toEqual({ client_id: c.clientId, deleted: true });
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
  });

  it('when the listening connection is lost, then a change made without notification applies as soon as the service reconnects', async () => {
    const c = await createApiAndClient(h);
    expect((await token(c, c.clientSecret)).status).toBe(200);

    const { rows } = await other.raw(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'identity client cache'`);
    expect(rows).toHaveLength(1);
    // Raw SQL with triggers off, so no NOTIFY: only the dropped cache (or, much later, the entry's maximum age) can reveal it.
    await other.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx('clients').where({ client_id: c.clientId }).update({ secret_hash: newClientSecret().hash });
    });
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
  });

  it('after the listening connection is back, a rotation is again noticed at once', async () => {
    const c = await createApiAndClient(h);
    // The previous test cut the connection; wait until the listener has reconnected.
    const admin = new pg.Client({ connectionString: h.config.DATABASE_URL });
    await admin.connect();
    try {
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'identity client cache'`);
        if (rows.length === 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await admin.end();
    }
    expect((await token(c, c.clientSecret)).status).toBe(200);
    expect((await token(c, c.clientSecret)).status).toBe(200);

    const next = newClientSecret();
    await createContext(h.config, other).clients.setSecretHash(c.clientId, next.hash);
    expect(hashClientSecret(next.secret)).toBe(next.hash);
    await refusedBeforeExpiry(() => token(c, c.clientSecret));
    expect((await token(c, next.secret)).status).toBe(200);
  });
});

describe('CLIENT_CACHE=false (a database with a single connection, such as the embedded one)', () => {
  it('opens no listening connection and reads the client on every request: a rotation applies to the very next one', async () => {
    const uncached = await startIdentity({ CLIENT_CACHE: 'false' });
    try {
      const { rows } = await other.raw(`SELECT 1 FROM pg_stat_activity WHERE datname = ? AND application_name = 'identity client cache'`, [
        new URL(uncached.config.DATABASE_URL).pathname.slice(1),
      ]);
      expect(rows).toEqual([]);
      const c = await createApiAndClient(uncached);
      const url = `${uncached.issuer}/protocol/openid-connect/token`;
      const request = (secret: string) => postForm(url, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: secret });
      expect((await request(c.clientSecret)).status).toBe(200);
      const rotated = await uncached.cli<{ client_secret: string }>('clients', 'rotate-secret', c.clientId);
      expect((await request(c.clientSecret)).status).toBe(401);
      expect((await request(rotated.client_secret)).status).toBe(200);
    } finally {
      await uncached.close();
    }
  });
});

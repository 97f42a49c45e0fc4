import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { checkReadiness, healthEndpoints, type HealthOptions } from './health.js';
import { managementEndpoints } from './management.js';

const never = () => new Promise<never>(() => {});

describe('checkReadiness', () => {
  it('is ready only when every check resolves, and names each failing one', async () => {
    expect(await checkReadiness({ checks: { database: async () => 1, redis: async () => 'PONG' } })).toEqual({
      ready: true,
      body: { status: 'ready', database: 'ok', redis: 'ok' },
    });
    const failing = await checkReadiness({
      checks: {
        database: async () => 1,
        redis: () => Promise.reject(new Error('refused')),
        keys: () => {
          throw new Error('no active key');
        },
      },
    });
    expect(failing).toEqual({ ready: false, body: { status: 'not ready', database: 'ok', redis: 'unavailable', keys: 'unavailable' } });
  });

  it('gives a check that hangs its own timeout, all checks at once', async () => {
    // Two checks that each answer only once the other has started: one after the other, the first would time out.
    const signal = () => {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve: () => resolve() };
    };
    const started = { database: signal(), redis: signal() };
    const meets = (self: keyof typeof started, other: keyof typeof started) => async () => {
      started[self].resolve();
      await started[other].promise;
    };
    const result = await checkReadiness({
      checks: { database: meets('database', 'redis'), redis: meets('redis', 'database'), hung: never, keys: async () => true },
      timeoutMs: 200,
    });
    expect(result.body).toEqual({ status: 'not ready', database: 'ok', redis: 'ok', hung: 'timeout', keys: 'ok' });
  });

  it("calls a driver's own timeout a timeout, whichever of it and the check's timer fires first", async () => {
    // A stalled PostgreSQL: pg's connect timeout, knex's acquire timeout, pg's query timeout and the
    // server's statement_timeout reject before (or as) the check's own timer fires.
    const rejecting = (err: Error & { code?: string }) => () => Promise.reject(err);
    const knexTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' });
    const result = await checkReadiness({
      checks: {
        connect: rejecting(new Error('timeout exceeded when trying to connect')),
        acquire: rejecting(knexTimeout),
        query: rejecting(new Error('select 1 - Query read timeout')),
        statement: rejecting(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })),
        refused: rejecting(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
      },
    });
    expect(result.body).toEqual({ status: 'not ready', connect: 'timeout', acquire: 'timeout', query: 'timeout', statement: 'timeout', refused: 'unavailable' });
  });

  it('is unready without running the checks once shutdown has begun', async () => {
    let ran = false;
    const result = await checkReadiness({ checks: { database: async () => (ran = true) }, stopping: () => true });
    expect(result).toEqual({ ready: false, body: { status: 'stopping' } });
    expect(ran).toBe(false);
  });
});

describe('healthEndpoints', () => {
  let server: Server;
  let url: string;
  const options: HealthOptions = { checks: { database: async () => 1 } };
  beforeAll(async () => {
    const health = healthEndpoints(options);
    server = createServer((req, res) => health(req, res, () => res.writeHead(404).end()));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('answers /healthz and /readyz as uncached JSON and passes other paths on', async () => {
    const live = await fetch(`${url}/healthz`);
    expect([live.status, live.headers.get('cache-control'), await live.json()]).toEqual([200, 'no-store', { status: 'ok' }]);
    const ready = await fetch(`${url}/readyz?verbose`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', database: 'ok' }]);
    expect((await fetch(`${url}/other`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('answers 503 when a dependency fails', async () => {
    options.checks['redis'] = () => Promise.reject(new Error('down'));
    const res = await fetch(`${url}/readyz`);
    expect([res.status, await res.json()]).toEqual([503, { status: 'not ready', database: 'ok', redis: 'unavailable' }]);
  });
});

describe('a reported dependency (one the service serves without)', () => {
  let server: Server;
  let url: string;
  let redisUp = true;
  const redis = () => (redisUp ? Promise.resolve('PONG') : Promise.reject(new Error('refused')));
  const registry = new Registry();
  beforeAll(async () => {
    const management = managementEndpoints({ registry, health: { checks: { database: async () => 1 }, reported: { redis, hung: never } } });
    server = createServer(management);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const gauge = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text.split('\n').filter((line) => line.startsWith('hush_dependency_up{'));
  };

  it("never makes the service unready or unlive; /healthz names its state within a liveness probe's second", async () => {
    redisUp = false;
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', database: 'ok' }]);
    // A dependency that never answers is reported as a timeout: /healthz waited its own limit (300 ms), not for it.
    const live = await fetch(`${url}/healthz`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok', redis: 'unavailable', hung: 'timeout' }]);
  });

  it('is in the hush_dependency_up gauge, as every needed one is', async () => {
    redisUp = false;
    expect(await gauge()).toEqual(['hush_dependency_up{dependency="database"} 1', 'hush_dependency_up{dependency="redis"} 0', 'hush_dependency_up{dependency="hung"} 0']);
    redisUp = true;
    expect(await gauge()).toContain('hush_dependency_up{dependency="redis"} 1');
  });
});

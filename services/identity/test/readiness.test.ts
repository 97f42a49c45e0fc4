import { dependencyUp, itIsNotReadyDuringEachOutage, itStaysReadyWhileRedisIsOut, proxiedDependencies, readinessProbe } from '@hush/testing';
import request from 'supertest';
import { createDb } from '../src/db/knex.js';
import { startIdentity, type Harness } from './harness.js';

const proxies = proxiedDependencies();
const { postgres, redis } = proxies;
let h: Harness;

beforeAll(async () => {
  await proxies.start();
  h = await startIdentity({}, { postgres, redis });
});
afterAll(async () => {
  await h.close();
  await proxies.stop();
});

const { readyz, ready } = readinessProbe(() => h.managementUrl);

beforeEach(ready);

describe('readiness', () => {
  it('is ready when the database and a signing key are there, and reports Redis up apart from readiness', async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', database: 'ok', keys: 'ok' } });
    expect((await request(h.managementUrl).get('/healthz')).body).toEqual({ status: 'ok', redis: 'ok' });
    expect(await dependencyUp(h.managementUrl, 'redis')).toBe(1);
    expect(await dependencyUp(h.managementUrl, 'database')).toBe(1);
  });

  itIsNotReadyDuringEachOutage(postgres, readyz);

  itStaysReadyWhileRedisIsOut(redis, () => h.managementUrl);

  it('answers 503 naming the keys while an algorithm has no active signing key loaded', async () => {
    const db = createDb(h.config.DATABASE_URL, 1);
    try {
      const [active] = await db('signing_keys').where({ status: 'active' }).pluck('kid');
      await db('signing_keys').where({ kid: active }).update({ status: 'next' });
      await h.identity.reloadKeys();
      expect(await readyz()).toMatchObject({ status: 503, body: { keys: 'unavailable', database: 'ok' } });
      await db('signing_keys').where({ kid: active }).update({ status: 'active' });
      await h.identity.reloadKeys();
      expect((await readyz()).status).toBe(200);
    } finally {
      await db.destroy();
    }
  });
});

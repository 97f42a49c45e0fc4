import { itIsNotReadyDuringEachOutage, proxiedDependencies, readinessProbe } from '@hush/testing';
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
  it('is ready when the database, Redis and a signing key are there', async () => {
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok', keys: 'ok' } });
  });

  itIsNotReadyDuringEachOutage(postgres, redis, readyz);

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

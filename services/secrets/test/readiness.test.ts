import request from 'supertest';
import { dependencyUp, itIsNotReadyDuringEachOutage, itStaysReadyWhileRedisIsOut, proxiedDependencies, readinessProbe } from '@hush/testing';
import { startSecrets, type Harness } from './harness.js';

const proxies = proxiedDependencies();
const { postgres, redis } = proxies;
let h: Harness;

beforeAll(async () => {
  await proxies.start();
  h = await startSecrets({}, { postgres, redis });
});
afterAll(async () => {
  await h.close();
  await proxies.stop();
});

const { readyz, ready } = readinessProbe(() => h.managementUrl);

beforeEach(ready);

describe('readiness', () => {
  it('is ready when the database is there, and reports Redis up apart from readiness', async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', database: 'ok' } });
    expect((await request(h.managementUrl).get('/healthz')).body).toEqual({ status: 'ok', redis: 'ok' });
    expect(await dependencyUp(h.managementUrl, 'redis')).toBe(1);
  });

  itIsNotReadyDuringEachOutage(postgres, readyz);

  itStaysReadyWhileRedisIsOut(redis, () => h.managementUrl);
});

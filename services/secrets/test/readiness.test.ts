import { adminDatabaseUrl, itIsNotReadyDuringEachOutage, readinessProbe, TcpProxy, testRedisUrl } from '@hush/testing';
import { startSecrets, type Harness } from './harness.js';

// PostgreSQL and Redis are reached through proxies this file cuts and stalls; the real servers
// keep running for the other test files.
const postgres = new TcpProxy(adminDatabaseUrl);
const redis = new TcpProxy(testRedisUrl);
let h: Harness;

beforeAll(async () => {
  await Promise.all([postgres.start(), redis.start()]);
  h = await startSecrets({}, { postgres, redis });
});
afterAll(async () => {
  // BullMQ's connections (delivery status worker) take a moment to come back after the Redis
  // outage; closed before that, they keep reconnecting and Jest cannot exit.
  await ready();
  await new Promise((r) => setTimeout(r, 2000));
  await h.close();
  await Promise.all([postgres.stop(), redis.stop()]);
});

const { readyz, ready } = readinessProbe(() => h.url);

beforeEach(async () => {
  await ready();
});

describe('readiness', () => {
  it('is ready when the database and Redis are there', async () => {
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });
  });

  itIsNotReadyDuringEachOutage(postgres, redis, readyz);
});

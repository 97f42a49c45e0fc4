import { adminDatabaseUrl, dependencyOutages, duringOutage, eventually, probeReadiness, TcpProxy, testRedisUrl } from '@hush/testing';
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

const readyz = () => probeReadiness(h.url);
const ready = () => eventually(async () => ((await readyz()).status === 200 ? true : undefined));

beforeEach(async () => {
  await ready();
});

describe('readiness', () => {
  it('is ready when the database and Redis are there', async () => {
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });
  });

  it.each(dependencyOutages(postgres, redis))('answers 503 naming the dependency within 2 s when %s', async (_case, proxy, dependency, outage) => {
    const res = await duringOutage(proxy, outage, readyz);
    expect(res.status).toBe(503);
    expect(res.body['status']).toBe('not ready');
    expect(res.body[dependency]).not.toBe('ok');
    expect(res.ms).toBeLessThan(2000);
  });
});

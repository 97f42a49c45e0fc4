import { adminDatabaseUrl, eventually, testRedisUrl } from './servers.js';
import { dependencyOutages, duringOutage, probeReadiness, TcpProxy } from './tcp-proxy.js';

/**
 * `/readyz` of a service whose PostgreSQL and Redis are reached through proxies the test cuts and
 * stalls (the real servers keep serving the other test files): `readyz` probes once, `ready` waits
 * until the service is ready again, so each test starts from a ready service.
 */
export function readinessProbe(baseUrl: () => string) {
  const readyz = () => probeReadiness(baseUrl());
  const ready = () => eventually(async () => ((await readyz()).status === 200 ? true : undefined));
  return { readyz, ready };
}

/** The outages every HTTP service must report on its readiness endpoint, quickly and by name. */
export function itIsNotReadyDuringEachOutage(postgres: TcpProxy, redis: TcpProxy, readyz: ReturnType<typeof readinessProbe>['readyz']): void {
  it.each(dependencyOutages(postgres, redis))('answers 503 naming the dependency within 2 s when %s', async (_case, proxy, dependency, outage) => {
    const res = await duringOutage(proxy, outage, readyz);
    expect(res.status).toBe(503);
    expect(res.body['status']).toBe('not ready');
    expect(res.body[dependency]).not.toBe('ok');
    expect(res.ms).toBeLessThan(2000);
  });
}

/**
 * A PostgreSQL and a Redis proxy for one test file, each in front of the real server, which keeps
 * serving the other files while this one cuts and stalls its proxies.
 */
export function proxiedDependencies() {
  const postgres = new TcpProxy(adminDatabaseUrl);
  const redis = new TcpProxy(testRedisUrl);
  return {
    postgres,
    redis,
    start: async () => void (await Promise.all([postgres.start(), redis.start()])),
    stop: async () => void (await Promise.all([postgres.stop(), redis.stop()])),
  };
}

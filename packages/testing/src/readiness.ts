import request from 'supertest';
import { adminDatabaseUrl, eventually, testRedisUrl } from './servers.js';
import { duringOutage, outagesOf, probeReadiness, TcpProxy } from './tcp-proxy.js';

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

/** The value of `hush_dependency_up{dependency=...}` on the management port's /metrics (undefined if absent). */
export async function dependencyUp(managementUrl: string, dependency: string): Promise<number | undefined> {
  const res = await request(managementUrl).get('/metrics');
  const line = res.text.split('\n').find((l) => l.startsWith('hush_dependency_up{') && l.includes(`dependency="${dependency}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * The outages of PostgreSQL every HTTP service must report on its readiness endpoint, by name. A
 * stalled server never answers: an answer at all is the readiness check's own timeout at work.
 */
export function itIsNotReadyDuringEachOutage(postgres: TcpProxy, readyz: ReturnType<typeof readinessProbe>['readyz']): void {
  it.each(outagesOf('PostgreSQL', postgres, 'database'))('answers 503 naming the dependency when %s', async (_case, proxy, dependency, outage) => {
    const res = await duringOutage(proxy, outage, readyz);
    expect(res.status).toBe(503);
    expect(res.body['status']).toBe('not ready');
    expect(res.body[dependency]).not.toBe('ok');
  });
}

/**
 * The outages of Redis, which identity and secrets serve without: an unready fleet would be an
 * outage of its own, so they stay ready (and live), and report Redis in the /healthz body and the
 * `hush_dependency_up` gauge instead.
 */
export function itStaysReadyWhileRedisIsOut(redis: TcpProxy, managementUrl: () => string): void {
  it.each(outagesOf('Redis', redis, 'redis'))(
    'stays ready and live, and reports Redis down in /healthz and hush_dependency_up, when %s',
    async (_case, proxy, dependency, outage) => {
      const seen = await duringOutage(proxy, outage, async () => {
        // The last of these answers is taken once the client has noticed (a stall takes a timeout).
        const up = await eventually(async () => ((await dependencyUp(managementUrl(), dependency)) === 0 ? 0 : undefined), 5000, 100);
        const [readyz, healthz] = await Promise.all([probeReadiness(managementUrl()), request(managementUrl()).get('/healthz')]);
        return { up, readyz, healthz: { status: healthz.status, body: healthz.body as Record<string, string> } };
      });
      expect(seen.up).toBe(0);
      expect(seen.readyz.status).toBe(200);
      expect(seen.readyz.body['status']).toBe('ready');
      expect(seen.readyz.body).not.toHaveProperty(dependency);
      expect(seen.healthz.status).toBe(200);
      expect(seen.healthz.body['status']).toBe('ok');
      expect(seen.healthz.body[dependency]).not.toBe('ok');
      // Back: the gauge says so again.
      await eventually(async () => ((await dependencyUp(managementUrl(), dependency)) === 1 ? true : undefined), 10_000, 100);
    },
  );
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

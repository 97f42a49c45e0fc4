import { Socket } from 'node:net';
import { dependencyUp, eventually, proxiedDependencies, testRedisUrl, type TcpProxy } from '@hush/testing';
import { startIdentityService, startSecretsService, type RunningService } from './services.js';

/**
 * A service closed while Redis is out lets go of every Redis connection it had (the request
 * path's, and the secrets service's revocation feed): none is left open on a hung Redis, and
 * none comes back once Redis does. One left behind would keep the process from exiting.
 */
const proxies = proxiedDependencies();
const { postgres, redis } = proxies;

beforeAll(() => proxies.start());
afterAll(() => proxies.stop());

async function startBoth(env: Record<string, string> = {}): Promise<RunningService[]> {
  env = { REDIS_URL: redis.via(testRedisUrl), ...env };
  return Promise.all([startSecretsService(postgres, env), startIdentityService(postgres, env)]);
}

/** This process's sockets still open to `proxy`. */
function socketsTo(proxy: TcpProxy): Socket[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((h): h is Socket => h instanceof Socket && !h.destroyed && h.remotePort === proxy.port);
}

it('closed while Redis hangs, a service leaves no socket open to it', async () => {
  // Shorter than the 2 s ioredis gives a connection it was asked to end before it destroys it.
  const services = await startBoth({ REDIS_TIMEOUT_MS: '500' });
  expect(socketsTo(redis).length).toBeGreaterThan(0);
  redis.stall();
  try {
    await Promise.all(services.map((s) => s.close()));
    expect(socketsTo(redis)).toEqual([]);
  } finally {
    await redis.stop();
    await redis.start();
  }
}, 30_000);

it('closed while Redis is down, a service does not connect to it again once it is back', async () => {
  const services = await startBoth();
  await redis.stop();
  try {
    // Both have seen the outage: their connections are between two attempts to reconnect.
    for (const s of services) await eventually(async () => ((await dependencyUp(s.managementUrl, 'redis')) === 0 ? true : undefined), 10_000, 50);
    await Promise.all(services.map((s) => s.close()));
  } finally {
    await redis.start();
  }
  // Longer than ioredis waits between two attempts (5 s at most, by default): a connection left
  // trying would have come back by then.
  await new Promise((r) => setTimeout(r, 6000));
  expect(redis.accepted).toBe(0);
}, 40_000);

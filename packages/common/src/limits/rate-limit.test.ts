import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisMonitor } from '../../../testing/src/redis-monitor.js';
import { RateLimits } from './rate-limit.js';

// Against the real Redis the other tests use, with the options of infrastructure.ts.
const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true } as const;
const clients: Redis[] = [];
async function client(target = url): Promise<Redis> {
  // disconnectTimeout 0: on disconnect() ioredis otherwise arms a 2 s timer that a socket it had
  // already seen close (the dead port's) never clears, and Jest waits for it.
  const redis = new Redis(target, { ...options, disconnectTimeout: 0 });
  redis.on('error', () => {});
  clients.push(redis);
  if (target === url) await once(redis, 'ready');
  return redis;
}
afterAll(() => clients.forEach((c) => c.disconnect()));
const prefix = () => `rate-limit-test:${randomBytes(4).toString('hex')}:`;

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('RateLimit against Redis', () => {
  it('lets exactly `points` of many concurrent requests through, across replicas', async () => {
    const p = prefix();
    const replicas = await Promise.all(Array.from({ length: 4 }, () => client()));
    const limits = replicas.map((r) => new RateLimits(r, p).define('req', 10, 60));
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => limits[i % limits.length]!.consume('alice')));
    expect(results.filter((r) => r === 0)).toHaveLength(10);
    expect(results.filter((r) => r > 0 && r <= 60)).toHaveLength(70);
    const key = limits[0]!.storeKey('alice');
    expect(key.startsWith(`${p}req:`)).toBe(true);
    expect(key).not.toContain('alice');
    expect(await replicas[0]!.get(key)).toBe('80');
    const ttl = await replicas[0]!.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('spends a burst in one call: the first callers get the points left, in call order, the rest wait', async () => {
    const redis = await client();
    const limit = new RateLimits(redis, prefix()).define('burst', 10, 60);
    expect(await limit.consume('carol')).toBe(0);
    const burst = await Promise.all(Array.from({ length: 12 }, () => limit.consume('carol')));
    expect(burst.slice(0, 9)).toEqual(Array(9).fill(0));
    for (const wait of burst.slice(9)) expect(wait).toBeGreaterThan(0);
    // The same count as 13 calls one by one, and another key is untouched.
    expect(await redis.get(limit.storeKey('carol'))).toBe('13');
    expect(await limit.consume('dave')).toBe(0);
    expect(await limit.consume('carol')).toBeGreaterThan(0);
  });

  it('takes a point on every key or on none; a key at its limit is blocked until its window ends, others are not', async () => {
    const limits = new RateLimits(await client(), prefix());
    const perUser = limits.define('user', 3, 120);
    const perIp = limits.define('ip', 5, 30);
    const checks = (user: string) => [
      { limit: perUser, key: user },
      { limit: perIp, key: '10.0.0.1' },
    ];
    for (let i = 0; i < 3; i++) expect(await limits.take(checks('bob'))).toBe(0);
    expect(await limits.retryAfter(checks('bob'))).toBeGreaterThan(30);
    const wait = await limits.take(checks('bob'));
    expect(wait).toBeGreaterThan(30);
    expect(wait).toBeLessThanOrEqual(120);
    expect(await perUser.retryAfter('bob')).toBe(wait);
    // The refused call took nothing, not even on the address: carol has its two points left.
    expect(await limits.take(checks('carol'))).toBe(0);
    expect(await limits.take(checks('carol'))).toBe(0);
    const ipWait = await limits.take(checks('carol'));
    expect(ipWait).toBeGreaterThan(0);
    expect(ipWait).toBeLessThanOrEqual(30);
  });

  it('gives back what was taken, never below zero and never into a new window', async () => {
    const redis = await client();
    const limits = new RateLimits(redis, prefix());
    const limit = limits.define('refund', 2, 60);
    const checks = [{ limit, key: 'erin' }];
    expect(await limits.take(checks)).toBe(0);
    expect(await limits.take(checks)).toBe(0);
    expect(await limits.take(checks)).toBeGreaterThan(0);
    await limits.refund(checks);
    expect(await limits.take(checks)).toBe(0);
    await limits.refund(checks);
    await limits.refund(checks);
    await limits.refund(checks);
    expect(await redis.get(limit.storeKey('erin'))).toBe('0');
    // A key whose window ended is not brought back by a late refund.
    await redis.del(limit.storeKey('erin'));
    await limits.refund(checks);
    expect(await redis.exists(limit.storeKey('erin'))).toBe(0);
  });

  it('of many concurrent attempts on every replica, evaluates exactly `points`; successes give their point back', async () => {
    const p = prefix();
    const replicas = await Promise.all(Array.from({ length: 3 }, () => client()));
    const limits = replicas.map((r) => new RateLimits(r, p));
    const defined = limits.map((l) => l.define('guess', 5, 60));
    let evaluated = 0;
    const attempts = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const at = i % 3;
        return limits[at]!.attempt(
          [{ limit: defined[at]!, key: 'frank' }],
          async () => {
            evaluated++;
            await new Promise((resolve) => setImmediate(resolve));
            return 'wrong';
          },
          () => true,
        );
      }),
    );
    expect(evaluated).toBe(5);
    expect(attempts.filter((a) => a.blocked)).toHaveLength(55);
    expect(await replicas[0]!.get(defined[0]!.storeKey('frank'))).toBe('5');

    const right = limits[0]!.define('right', 2, 60);
    const ok = await limits[0]!.attempt(
      [{ limit: right, key: 'gina' }],
      async () => 'right',
      (r) => r !== 'right',
    );
    expect(ok).toEqual({ blocked: false, result: 'right' });
    expect(await replicas[0]!.get(right.storeKey('gina'))).toBe('0');
    await expect(
      limits[0]!.attempt(
        [{ limit: right, key: 'gina' }],
        () => Promise.reject(new Error('down')),
        () => true,
      ),
    ).rejects.toThrow('down');
    expect(await replicas[0]!.get(right.storeKey('gina'))).toBe('0');
  });

  it('checks several keys with one MGET', async () => {
    const redis = await client();
    const limits = new RateLimits(redis, prefix());
    const a = limits.define('a', 2, 60);
    const b = limits.define('b', 2, 60);
    const monitor = await RedisMonitor.start(url);
    try {
      let wait: number | undefined;
      const seen = await monitor.during(async () => {
        wait = await limits.retryAfter([
          { limit: a, key: 'x' },
          { limit: b, key: 'y' },
        ]);
      });
      expect(wait).toBe(0);
      const source = `${redis.stream.localAddress}:${redis.stream.localPort}`;
      expect(seen.filter((c) => c.from === source).map((c) => c.command)).toEqual(['mget']);
    } finally {
      monitor.close();
    }
  });
});

describe('RateLimit while Redis is unreachable', () => {
  it('keeps limiting in this process (the in-memory insurance limiter)', async () => {
    const redis = await client(`redis://127.0.0.1:${await deadPort()}`);
    const limits = new RateLimits(redis, prefix());
    const requests = limits.define('req', 3, 60);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await requests.consume('alice'));
    expect(results.slice(0, 3)).toEqual([0, 0, 0]);
    expect(results[3]).toBeGreaterThan(0);
    expect(results[3]).toBeLessThanOrEqual(60);
    expect(await requests.consume('bob')).toBe(0);

    const failures = limits.define('fail', 2, 60);
    const checks = [{ limit: failures, key: 'bob' }];
    expect(await limits.take(checks)).toBe(0);
    expect(await limits.retryAfter(checks)).toBe(0);
    expect(await limits.take(checks)).toBe(0);
    expect(await limits.retryAfter(checks)).toBeGreaterThan(0);
    expect(await limits.take(checks)).toBeGreaterThan(0);
    await limits.refund(checks);
    expect(await limits.retryAfter(checks)).toBe(0);
    expect(await limits.take(checks)).toBe(0);
    expect(await failures.retryAfter('bob')).toBeGreaterThan(0);
  });
});

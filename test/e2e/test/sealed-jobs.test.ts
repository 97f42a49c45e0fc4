import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { eventually, startSystem, type System } from './system.js';

/**
 * What Redis holds of pending e-mails: anyone who can read it (a dump, a replica, a loose ACL)
 * must learn no link that opens a secret, no secret key and no recipient address. The mailer is
 * stopped, 100 secrets are shared with recipients, every key under the test's queue prefix is
 * read back whole; then the mailer starts and delivers all 100.
 */
const SHARES = 100;

/** Every value Redis holds under `prefix`, as text, whatever the key's type. */
async function dumpPrefix(redis: Redis, prefix: string): Promise<{ keys: number; text: string }> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const parts: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'string') parts.push(String(await redis.get(key)));
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, '0', '-1', 'WITHSCORES')));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    else parts.push(`<${type}>`);
    parts.push(key);
  }
  return { keys: keys.length, text: parts.join('\n') };
}

describe('e-mail jobs in Redis', () => {
  let system: System;
  let redis: Redis;
  beforeAll(async () => {
    system = await startSystem({ startMailer: false, secretsEnv: { RATE_LIMIT_MAX: '0' } });
    redis = new Redis(system.secrets.config.REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    await system.close();
  });

  it('hold no secret key, link or recipient address in clear while they wait, and are all delivered once the mailer runs', async () => {
    const { auth } = await system.secrets.account();
    const tag = randomBytes(4).toString('hex');
    const shares: { to: string; key: string; link: string }[] = [];
    for (let i = 0; i < SHARES; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const to = `sealed-${tag}-${i + j}@example.com`;
          const res = await system.secrets.http
            .post('/api/v1/share')
            .set('Authorization', auth)
            .type('form')
            .send({ secret: `value ${i + j}`, recipient: to });
          expect(res.status).toBe(200);
          const key = (res.body as { secret_key: string }).secret_key;
          return { to, key, link: `${system.secrets.url}/secret/${key}` };
        }),
      );
      shares.push(...batch);
    }
    // Every e-mail has left the outbox for the queue.
    await eventually(async () => ((await system.secrets.secrets.delivery.queueDepth()) === SHARES ? true : undefined), 20_000);

    const dump = await dumpPrefix(redis, system.secrets.config.QUEUE_PREFIX);
    expect(dump.keys).toBeGreaterThan(SHARES);
    const leaks = shares.flatMap(({ to, key }) => [to, key, to.split('@')[0] as string].filter((clear) => dump.text.includes(clear)));
    expect(leaks).toEqual([]);
    expect(dump.text).not.toContain('/secret/');
    expect(dump.text).not.toContain('@example.com');

    await system.startMailer();
    for (const { to, link } of shares) {
      const [mail] = await system.smtp.waitFor(to, 1, 30_000);
      expect(mail?.mail.text).toContain(link);
    }
    expect(system.smtp.received).toHaveLength(SHARES);
    const logs = [...system.secrets.logs, ...system.mailerLogs].join('\n');
    for (const { to, key } of shares) {
      expect(logs).not.toContain(to);
      expect(logs).not.toContain(key);
    }
  }, 90_000);
});

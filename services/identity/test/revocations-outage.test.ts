import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { encodeRevocation, revocationKey } from '@hush/common';
import { capturingLogger, eventually, TcpProxy, testRedisUrl, uniquePrefix } from '@hush/testing';
import { Revocations } from '../src/revocations/revocations.js';

/**
 * The revocation feed while Redis hangs: a grant's revocation has already taken effect in
 * PostgreSQL when it is announced, so its caller succeeds, and the announcement lands once Redis
 * is back; an access token's revocation lives in Redis alone, so its caller is told it failed.
 * One outage is one log line, not one per revocation.
 */
const proxy = new TcpProxy(testRedisUrl);
let direct: Redis;
let through: Redis;
const channel = uniquePrefix('revocations-outage').slice(0, -1);

beforeAll(async () => {
  await proxy.start();
  direct = new Redis(testRedisUrl);
  through = new Redis(proxy.via(testRedisUrl), { maxRetriesPerRequest: 1, commandTimeout: 300 });
  through.on('error', () => undefined);
  await once(through, 'ready');
});
afterAll(async () => {
  through.disconnect();
  await direct.del(channel);
  direct.disconnect();
  await proxy.stop();
});

it('answers success for grants revoked while Redis hangs, announces them once it is back, and logs the outage once', async () => {
  const { logger, logs } = capturingLogger('revocations-outage');
  const revocations = new Revocations(channel, through, logger);
  const grants = Array.from({ length: 20 }, () => randomBytes(8).toString('hex'));

  proxy.stall();
  // Redis answers nothing until the proxy is restarted below: resolving now is not waiting for it.
  await Promise.all(grants.map((g) => revocations.revokeGrant(g)));
  expect(revocations.pendingCount).toBe(grants.length);
  // An access token's revocation has no other record, and a client is deleted only once announced: those fail.
  await expect(revocations.revokeToken('jti-during-outage', Math.floor(Date.now() / 1000) + 300)).rejects.toThrow();
  await expect(revocations.revokeClient('client-during-outage')).rejects.toThrow();

  await proxy.stop();
  await proxy.start();
  await eventually(async () => (revocations.pendingCount === 0 ? true : undefined), 10_000);
  for (const g of grants) expect(await direct.zscore(channel, encodeRevocation({ kind: 'grant', key: revocationKey(g) }))).not.toBeNull();

  const lines = logs.map((l) => JSON.parse(l) as { msg: string; failures?: number });
  expect(lines.filter((l) => l.msg === 'redis unavailable')).toHaveLength(1);
  const back = lines.filter((l) => l.msg === 'redis available again');
  expect(back).toHaveLength(1);
  expect(back[0]?.failures).toBeGreaterThanOrEqual(grants.length);
  await revocations.close();
}, 30_000);

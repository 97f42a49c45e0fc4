import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from '../logging/logger.js';
import { durabilityRisks, readRedisDurability, warnIfRedisVolatile, type RedisDurability } from './redis-durability.js';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const safe: RedisDurability = { appendOnly: true, snapshots: '3600 1', evictionPolicy: 'noeviction', configUnavailable: undefined };

describe('durabilityRisks', () => {
  it('is silent for an append-only, non-evicting Redis', () => {
    expect(durabilityRisks(safe, 'jobs')).toEqual([]);
  });

  it('names the missing persistence and what it loses', () => {
    expect(durabilityRisks({ ...safe, appendOnly: false, snapshots: '' }, 'jobs')).toEqual(['Redis has no persistence at all: a Redis restart or crash loses jobs']);
    expect(durabilityRisks({ ...safe, appendOnly: false }, 'jobs')[0]).toContain('snapshots only');
    expect(durabilityRisks({ ...safe, appendOnly: false, snapshots: undefined }, 'jobs')[0]).toContain('no append-only file');
  });

  it('names an evicting policy', () => {
    const [line] = durabilityRisks({ ...safe, evictionPolicy: 'allkeys-lru' }, 'jobs');
    expect(line).toContain('"allkeys-lru"');
    expect(line).toContain('deletes jobs');
  });

  it('says nothing about what Redis would not tell', () => {
    expect(durabilityRisks({ appendOnly: undefined, snapshots: undefined, evictionPolicy: undefined, configUnavailable: 'ERR unknown command' }, 'jobs')).toEqual([]);
  });
});

describe('against the real Redis', () => {
  it('warns once, exactly the risks this Redis has', async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      await once(redis, 'ready');
      const d = await readRedisDurability(redis);
      expect(typeof d.appendOnly).toBe('boolean');
      expect(d.evictionPolicy).toMatch(/^[a-z-]+$/);

      const lines: string[] = [];
      const destination = new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      });
      warnIfRedisVolatile(redis, createLogger({ name: 'durability-test', level: 'warn', destination }), 'jobs');
      await new Promise((r) => setTimeout(r, 300));
      expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(durabilityRisks(d, 'jobs'));
    } finally {
      redis.disconnect();
    }
  });
});

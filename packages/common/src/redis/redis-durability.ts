import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';

/** What a Redis server says about keeping its data; `undefined` where it would not say. */
export interface RedisDurability {
  appendOnly: boolean | undefined;
  /** RDB snapshot schedule (`save`); '' when snapshots are off. */
  snapshots: string | undefined;
  evictionPolicy: string | undefined;
  /** Why CONFIG GET could not be used (managed Redis often disables it), if it could not. */
  configUnavailable: string | undefined;
}

const infoField = (info: string, field: string): string | undefined => new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();

/** Reads persistence and eviction settings: CONFIG GET where allowed, INFO otherwise. */
export async function readRedisDurability(redis: Redis): Promise<RedisDurability> {
  const [persistence, memory] = await Promise.all([redis.info('persistence'), redis.info('memory')]);
  const aof = infoField(persistence, 'aof_enabled');
  const result: RedisDurability = {
    appendOnly: aof === undefined ? undefined : aof === '1',
    snapshots: undefined,
    evictionPolicy: infoField(memory, 'maxmemory_policy'),
    configUnavailable: undefined,
  };
  try {
    // Only CONFIG tells the snapshot schedule; INFO tells the other two, even where CONFIG is off.
    const save = (await redis.call('CONFIG', 'GET', 'save')) as string[];
    result.snapshots = save[1] ?? '';
  } catch (err) {
    result.configUnavailable = (err as Error).message;
  }
  return result;
}

/** The log lines a Redis setup deserves, given what it holds for `purpose`; empty when it is safe. */
export function durabilityRisks(d: RedisDurability, purpose: string): string[] {
  const risks: string[] = [];
  if (d.appendOnly === false) {
    const kept = d.snapshots === '' ? 'no persistence at all' : d.snapshots === undefined ? 'no append-only file' : `snapshots only (save "${d.snapshots}")`;
    risks.push(`Redis has ${kept}: a Redis restart or crash loses ${purpose}`);
  }
  if (d.evictionPolicy !== undefined && d.evictionPolicy !== 'noeviction') {
    risks.push(`Redis maxmemory-policy is "${d.evictionPolicy}", not "noeviction": under memory pressure Redis silently deletes ${purpose}`);
  }
  return risks;
}

/**
 * Warns once, when Redis is first reachable, if it may lose `purpose` (no persistence, or an
 * eviction policy that deletes keys). Never throws and never delays the caller: a Redis that is
 * down or refuses INFO/CONFIG is noted at debug level only.
 */
export function warnIfRedisVolatile(redis: Redis, logger: Logger, purpose: string): void {
  const check = async () => {
    try {
      const d = await readRedisDurability(redis);
      if (d.configUnavailable !== undefined) {
        logger.debug({ err: d.configUnavailable }, 'redis CONFIG GET unavailable; persistence judged from INFO only');
      }
      for (const risk of durabilityRisks(d, purpose)) logger.warn(risk);
    } catch (err) {
      logger.debug({ err: (err as Error).message }, 'could not read redis persistence settings');
    }
  };
  if (redis.status === 'ready') void check();
  else redis.once('ready', () => void check());
}

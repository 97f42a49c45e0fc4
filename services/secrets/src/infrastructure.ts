import { Redis } from 'ioredis';
import { createLogger } from '@hush/common';
import type { Config } from './config.js';
import type { Infrastructure } from './context.js';
import { createDb } from './db/knex.js';

export function connect(config: Config, name = 'secrets'): Infrastructure {
  const logger = createLogger({ name, level: config.LOG_LEVEL });
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  // Fail fast when Redis is down (the rate limiter then fails open) instead of queueing commands.
  // Auto-pipelining: the commands of one event-loop turn (every request's rate-limit INCR) go out
  // in one socket write, which costs more than the commands on our machines.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  return { db, redis, logger };
}

export async function disconnect(infra: Infrastructure): Promise<void> {
  await Promise.allSettled([infra.db.destroy(), infra.redis.quit()]);
}

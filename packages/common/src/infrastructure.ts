import { Redis } from 'ioredis';
import { createDb, type Db, type DbOptions } from './db.js';
import { createLogger, type Logger } from './logger.js';

/** The connections an HTTP service (identity, secrets) runs on; its tests pass their own. */
export type Infrastructure = { db: Db; redis: Redis; logger: Logger };

/** The configuration keys `connect` reads; both HTTP services name them alike. */
export interface InfrastructureConfig {
  LOG_LEVEL: string;
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  REDIS_URL: string;
}

export function connect(config: InfrastructureConfig, name: string, dbOptions: DbOptions = {}): Infrastructure {
  const logger = createLogger({ name, level: config.LOG_LEVEL });
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX, dbOptions);
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

import { Redis } from 'ioredis';
import type { HttpServiceConfig } from './config-keys.js';
import { createDb, type Db, type DbOptions } from './db.js';
import { createLogger, type Logger } from './logger.js';
import { outageLog } from './outage.js';

/** The connections an HTTP service (identity, secrets) runs on; its tests pass their own. */
export type Infrastructure = { db: Db; redis: Redis; logger: Logger };

/** The configuration keys `connect` reads (config-keys.ts, `httpServiceKeys`). */
export type InfrastructureConfig = Pick<HttpServiceConfig, 'LOG_LEVEL' | 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATABASE_TIMEOUT_MS' | 'REDIS_URL' | 'REDIS_TIMEOUT_MS'>;

/** `logger`: the service's own by default; tests pass one that keeps its lines. */
export function connect(config: InfrastructureConfig, name: string, dbOptions: DbOptions = {}, logger = createLogger({ name, level: config.LOG_LEVEL })): Infrastructure {
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX, { ...dbOptions, timeoutMs: config.DATABASE_TIMEOUT_MS });
  // Fail fast when Redis is down (the rate limiter then fails open) instead of queueing commands,
  // and give up on a command a hung Redis never answers.
  // Auto-pipelining: the commands of one event-loop turn (every request's rate-limit INCR) go out
  // in one socket write, which costs more than the commands on our machines.
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    commandTimeout: config.REDIS_TIMEOUT_MS,
    connectTimeout: config.REDIS_TIMEOUT_MS,
  });
  const infra = { db, redis, logger };
  watchOutages(infra);
  return infra;
}

/**
 * Ends the dependencies' outage logs (see outage.ts) when they answer again: the database on any
 * successful query, Redis once reconnected. Redis's connection errors (one per reconnection
 * attempt) go to its outage log too.
 */
export function watchOutages({ db, redis, logger }: Infrastructure): void {
  const database = outageLog(logger, 'database');
  db.on('query-response', () => database.recovered());
  const cache = outageLog(logger, 'redis');
  redis.on('error', (err) => cache.failed(err));
  redis.on('ready', () => cache.recovered());
}

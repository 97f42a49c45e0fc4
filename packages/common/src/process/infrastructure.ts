import type { Redis } from 'ioredis';
import type { HttpServiceConfig } from '../config/config-keys.js';
import { createDb, type Db, type DbOptions } from '../db/db.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { outageLog } from '../logging/outage.js';
import { connectRedis } from '../redis/redis.js';

/** The connections an HTTP service (identity, secrets) runs on; its tests pass their own. */
export type Infrastructure = { db: Db; redis: Redis; logger: Logger };

/** The configuration keys `connect` reads (config-keys.ts, `httpServiceKeys`). */
export type InfrastructureConfig = Pick<HttpServiceConfig, 'LOG_LEVEL' | 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATABASE_TIMEOUT_MS' | 'REDIS_URL' | 'REDIS_TIMEOUT_MS'>;

/** `logger`: the service's own by default; tests pass one that keeps its lines. */
export function connect(config: InfrastructureConfig, name: string, dbOptions: DbOptions = {}, logger = createLogger({ name, level: config.LOG_LEVEL })): Infrastructure {
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX, { ...dbOptions, timeoutMs: config.DATABASE_TIMEOUT_MS });
  const redis = connectRedis(config.REDIS_URL, config.REDIS_TIMEOUT_MS, logger, { requestPath: true });
  // A failed query is reported where it fails (reportUnavailable); any query that succeeds ends the outage.
  const database = outageLog(logger, 'database');
  db.on('query-response', () => database.recovered());
  return { db, redis, logger };
}

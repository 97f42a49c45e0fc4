import { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { outageLog } from './outage.js';

/**
 * A service's own Redis connection, as every service opens it. It fails fast when Redis is down
 * (no offline queue; the callers fail open, or retry later) instead of queueing commands, and
 * gives up on a command a hung Redis never answers. Auto-pipelining: the commands of one
 * event-loop turn (every request's rate-limit INCR) go out in one socket write, which costs more
 * than the commands on our machines. Its connection errors, one per reconnection attempt, go to
 * the Redis outage log (outage.ts), which the reconnection ends.
 */
export function connectRedis(url: string, timeoutMs: number, logger: Logger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
  });
  const outage = outageLog(logger, 'redis');
  redis.on('error', (err) => outage.failed(err));
  redis.on('ready', () => outage.recovered());
  return redis;
}

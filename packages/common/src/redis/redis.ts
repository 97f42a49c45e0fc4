import { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import { outageLog } from '../logging/outage.js';

/**
 * A service's own Redis connection, as every service opens it. It fails fast when Redis is down
 * (no offline queue; the callers fail open, or retry later) instead of queueing commands, and
 * gives up on a command a hung Redis never answers. Auto-pipelining: the commands of one
 * event-loop turn (every request's rate-limit INCR) go out in one socket write, which costs more
 * than the commands on our machines. Its connection errors, one per reconnection attempt, go to
 * the Redis outage log (outage.ts), which the reconnection ends.
 *
 * `requestPath`: the connection requests wait on (never one that blocks on purpose, as a queue
 * worker's does). It is dropped once Redis has left a command unanswered for the timeout, and
 * reconnects: until Redis answers again the connection is not ready, so every command fails at
 * once (no offline queue) instead of each waiting the timeout again, which is ioredis' own circuit
 * breaker (`socketTimeout`: one timer per connection, nothing per command), and the calls of a
 * request share one timeout in all. A command that had no answer is not sent again on the new
 * connection: its caller has been told it failed, and must not see it take effect later.
 */
export function connectRedis(url: string, timeoutMs: number, logger: Logger, options: { requestPath?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    ...(options.requestPath ? { socketTimeout: timeoutMs, autoResendUnfulfilledCommands: false } : {}),
  });
  const outage = outageLog(logger, 'redis');
  redis.on('error', (err) => outage.failed(err));
  redis.on('ready', () => outage.recovered());
  return redis;
}

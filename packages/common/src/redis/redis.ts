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
 *
 * `disconnectTimeout: 0`: a connection ioredis drops is destroyed at once instead of after up to
 * 2 s of waiting for Redis to close its side, which a hung Redis never does; and a connection
 * dropped while it waits to reconnect (its socket already closed) leaves no timer behind.
 */
export function connectRedis(url: string, timeoutMs: number, logger: Logger, options: { requestPath?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    disconnectTimeout: 0,
    ...(options.requestPath ? { socketTimeout: timeoutMs, autoResendUnfulfilledCommands: false } : {}),
  });
  const outage = outageLog(logger, 'redis');
  redis.on('error', (err) => outage.failed(err));
  redis.on('ready', () => outage.recovered());
  return redis;
}

/**
 * Ends `redis` for good, whatever its state. When it is ready, QUIT lets Redis answer what was sent
 * before it (within the connection's command timeout); then the connection is dropped (dropRedis).
 * A bare `quit()` is not enough without an offline queue: unless the connection is ready it fails
 * at once and changes nothing, so a connection waiting to reconnect (Redis down) goes on
 * reconnecting forever and keeps the process alive.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => undefined);
  if (redis.status !== 'end') dropRedis(redis);
}

/**
 * Drops `redis` at once, replies not yet read included, and stops it reconnecting. ioredis ends the
 * socket and waits up to 2 s for Redis to close its side before destroying it, which a hung Redis
 * never does: the socket is destroyed here instead.
 */
export function dropRedis(redis: Redis): void {
  const socket = redis.stream as Redis['stream'] | undefined;
  redis.disconnect();
  socket?.destroy();
}

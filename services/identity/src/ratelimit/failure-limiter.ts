import type { Redis } from 'ioredis';
import type { Logger } from '@hush/common';

export interface LimitKey {
  key: string;
  max: number;
}

/**
 * Counts failures (bad client secrets, bad passwords) per key in fixed windows in Redis, so the
 * limit holds across every instance. A key at its maximum is blocked until its window ends.
 *
 * If Redis is unreachable we fail open (log, allow): the limiter protects against guessing, and a
 * Redis outage must not take logins and token issuance down with it.
 */
export class FailureLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowSeconds: number,
    private readonly logger: Logger,
  ) {}

  /** Seconds until the first blocked key unblocks, or 0 when none is blocked. */
  async retryAfter(keys: LimitKey[]): Promise<number> {
    try {
      // One MGET; TTLs only for keys at their limit (rare). With auto-pipelining, concurrent
      // requests share one write to Redis.
      const counts = await this.redis.mget(keys.map((k) => this.prefix + k.key));
      let wait = 0;
      for (const [i, k] of keys.entries()) {
        if (Number(counts[i] ?? 0) < k.max) continue;
        const ttl = await this.redis.ttl(this.prefix + k.key);
        wait = Math.max(wait, ttl > 0 ? ttl : this.windowSeconds);
      }
      return wait;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; allowing request');
      return 0;
    }
  }

  async recordFailure(keys: LimitKey[]): Promise<void> {
    try {
      const pipeline = this.redis.pipeline();
      for (const k of keys) pipeline.incr(this.prefix + k.key).expire(this.prefix + k.key, this.windowSeconds, 'NX');
      await pipeline.exec();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; failure not counted');
    }
  }
}

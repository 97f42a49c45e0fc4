import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { sha256 } from '../crypto/crypto.js';

/**
 * Rate limits shared by every replica, on rate-limiter-flexible:
 * - each limit allows `points` per key in a fixed window that starts at the key's first point;
 * - counting is one Lua script in Redis (set-if-absent with expiry, then INCRBY), so concurrent
 *   requests on all replicas never get more than `points` through, and no counter is left
 *   without its expiry;
 * - a limit that guards a check (a password, a code) is taken before the check, never counted
 *   after it (`attempt`): of any number of attempts at once, at most `points` are checked;
 * - while Redis is unreachable each process keeps counting in memory (the insurance limiter),
 *   so limits still hold per process instead of letting everything through;
 * - keys are stored as a hash: callers pass user names, e-mail addresses and IP addresses.
 */
export class RateLimits {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** A limit of `points` per key per `windowSeconds`, stored under `<prefix><name>:`. */
  define(name: string, points: number, windowSeconds: number): RateLimit {
    return new RateLimit(this.redis, `${this.prefix}${name}`, points, windowSeconds);
  }

  /**
   * Seconds until every key at its limit is free again; 0 when none is. One MGET for all the
   * keys (concurrent requests share a socket write through ioredis' auto-pipelining); the time
   * left is read only for a key at its limit, which is rare.
   */
  async retryAfter(checks: readonly LimitCheck[]): Promise<number> {
    let counts: (string | null)[];
    try {
      if (this.redis.status !== 'ready') throw new Error('redis not ready');
      counts = await this.redis.mget(checks.map((c) => c.limit.storeKey(c.key)));
    } catch {
      const waits = await Promise.all(checks.map((c) => c.limit.insuranceRetryAfter(c.key)));
      return Math.max(0, ...waits);
    }
    const blocked = checks.filter((c, i) => Number(counts[i] ?? 0) >= c.limit.points);
    if (blocked.length === 0) return 0;
    const waits = await Promise.all(blocked.map((c) => c.limit.retryAfter(c.key)));
    return Math.max(0, ...waits);
  }

  /**
   * Takes one point on every key, all or none: 0 when taken, else the seconds until the keys at
   * their limit are free again, and every point this call counted is given back (a refused
   * attempt counts nowhere). Each key's point is taken atomically (RateLimit#consume), so
   * concurrent callers on every replica never hold more than a key's `points`.
   */
  async take(checks: readonly LimitCheck[]): Promise<number> {
    const waits = await Promise.all(checks.map((c) => c.limit.consume(c.key)));
    if (waits.every((wait) => wait === 0)) return 0;
    await this.refund(checks);
    return Math.max(...waits);
  }

  /** Gives back a point `take` took on every key. */
  async refund(checks: readonly LimitCheck[]): Promise<void> {
    await Promise.all(checks.map((c) => c.limit.refund(c.key)));
  }

  /**
   * An attempt at something a limit guards (a password, a code): a point is taken on every key
   * first (`take`; when one is at its limit `evaluate` does not run and the answer is its wait),
   * then `evaluate` runs, and the points stay only if `failed(result)`. A success gives them back,
   * and so does an error (nothing was answered about the attempt).
   */
  async attempt<T>(checks: readonly LimitCheck[], evaluate: () => Promise<T>, failed: (result: T) => boolean): Promise<Attempt<T>> {
    const retryAfter = await this.take(checks);
    if (retryAfter > 0) return { blocked: true, retryAfter };
    let result: T;
    try {
      result = await evaluate();
    } catch (err) {
      await this.refund(checks);
      throw err;
    }
    if (!failed(result)) await this.refund(checks);
    return { blocked: false, result };
  }
}

/** What `RateLimits#attempt` answers: refused before the check, or the check's result. */
export type Attempt<T> = { blocked: true; retryAfter: number } | { blocked: false; result: T };

export interface LimitCheck {
  limit: RateLimit;
  key: string;
}

/** A decrement of a counter that exists and is above 0; its expiry stays. */
const REFUND = `local n = tonumber(redis.call('get', KEYS[1]))
if n and n > 0 then return redis.call('decr', KEYS[1]) end
return 0`;

export class RateLimit {
  private readonly store: RateLimiterRedis;
  private readonly insurance: RateLimiterMemory;
  private readonly hashed = new Map<string, string>();
  /** Callers of this event-loop turn, per hashed key, until flush() spends their points together. */
  private readonly waiting = new Map<string, { resolve(retryAfter: number): void; reject(err: unknown): void }[]>();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    readonly points: number,
    private readonly windowSeconds: number,
  ) {
    this.insurance = new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
    this.store = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration: windowSeconds,
      insuranceLimiter: this.insurance,
      // Straight to the insurance limiter while ioredis is reconnecting, whatever its queue options.
      rejectIfRedisNotReady: true,
    });
  }

  /**
   * Spends one point: 0 when the key is within its limit, else the seconds until its window ends.
   * The calls of one event-loop turn for the same key spend their points in one Redis call (a
   * burst from one account or address is one script run instead of one each); the first callers
   * get the points left, in call order, exactly as the same calls one by one would.
   */
  consume(key: string): Promise<number> {
    const hashed = this.hash(key);
    return new Promise((resolve, reject) => {
      let waiting = this.waiting.get(hashed);
      if (waiting === undefined) {
        waiting = [];
        this.waiting.set(hashed, waiting);
        if (this.waiting.size === 1) setImmediate(() => this.flush());
      }
      waiting.push({ resolve, reject });
    });
  }

  private flush(): void {
    const batches = [...this.waiting];
    this.waiting.clear();
    for (const [hashed, callers] of batches) {
      this.store.consume(hashed, callers.length).then(
        () => callers.forEach((c) => c.resolve(0)),
        (res: unknown) => {
          if (!(res instanceof RateLimiterRes)) return callers.forEach((c) => c.reject(res));
          // consumedPoints counts these calls too: those within the limit pass, in order.
          const within = Math.max(0, Math.min(callers.length, this.points - (res.consumedPoints - callers.length)));
          const wait = this.seconds(res);
          callers.forEach((c, i) => c.resolve(i < within ? 0 : wait));
        },
      );
    }
  }

  /**
   * Gives back a point consumed on the key: a decrement, never below 0, and only while its window
   * lasts (a point given back after its window ended would be one more in the next). Where Redis
   * is out, from what this process counted.
   */
  async refund(key: string): Promise<void> {
    const hashed = this.hash(key);
    if (this.redis.status === 'ready') {
      try {
        await this.redis.eval(REFUND, 1, this.store.getKey(hashed));
        return;
      } catch {
        // Redis failed: the point was counted in memory (the insurance limiter), or is lost with Redis.
      }
    }
    const res = await this.insurance.get(hashed);
    if (res && res.consumedPoints > 0) await this.insurance.reward(hashed, 1);
  }

  /** Seconds until the key is free again when it is at its limit, else 0 (no point spent). */
  async retryAfter(key: string): Promise<number> {
    const res = await this.store.get(this.hash(key));
    return res && res.consumedPoints >= this.points ? this.seconds(res) : 0;
  }

  /** @internal RateLimits#retryAfter when Redis failed: what this process counted. */
  async insuranceRetryAfter(key: string): Promise<number> {
    const res = await this.insurance.get(this.hash(key));
    return res && res.consumedPoints >= this.points ? this.seconds(res) : 0;
  }

  /** @internal The Redis key holding the key's count. */
  storeKey(key: string): string {
    return this.store.getKey(this.hash(key));
  }

  /** Remembered per key (one SHA-256 less per request; forgotten all at once past 10,000 keys). */
  private hash(key: string): string {
    let hashed = this.hashed.get(key);
    if (hashed === undefined) {
      if (this.hashed.size >= 10_000) this.hashed.clear();
      hashed = sha256(key).toString('base64url').slice(0, 22);
      this.hashed.set(key, hashed);
    }
    return hashed;
  }

  /** Whole seconds, at least 1 (a Retry-After of 0 would invite an immediate retry). */
  private seconds(res: RateLimiterRes): number {
    return res.msBeforeNext > 0 ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : this.windowSeconds;
  }
}

import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { sha256, type Logger } from '@hush/common';
import { RateLimitedError } from '../errors.js';
import { principalOf } from '../auth/authenticate.js';

/**
 * Fixed-window request counters in Redis, shared by every instance: RATE_LIMIT_MAX requests per
 * caller per RATE_LIMIT_WINDOW seconds, then 429 with Retry-After. The caller is the account for
 * authenticated routes and the client IP for reading secrets. Counter keys hold a hash of the
 * account (which may be an e-mail address). When Redis is down we fail open: the limiter guards
 * against abuse, and an outage must not take the API down with it.
 */
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly max: number,
    private readonly windowSeconds: number,
    private readonly logger: Logger,
  ) {}

  /** Counts one request; returns 0 when allowed, else the seconds until the window ends. */
  async hit(caller: string): Promise<number> {
    if (this.max === 0) return 0;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const window = Math.floor(nowSeconds / this.windowSeconds);
    const key = `${this.callerKey(caller)}:${window}`;
    try {
      const count = await this.redis.incr(key);
      // The first hit of a window sets its expiry; one round trip for every other request.
      if (count === 1) await this.redis.expire(key, this.windowSeconds + 1);
      return count > this.max ? (window + 1) * this.windowSeconds - nowSeconds : 0;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'rate limiter unavailable; allowing request');
      return 0;
    }
  }

  /** `<prefix>rl:<hash of the caller>`, remembered per caller (one SHA-256 less per request; forgotten all at once past 10,000 callers). */
  private callerKey(caller: string): string {
    let key = this.callerKeys.get(caller);
    if (key === undefined) {
      if (this.callerKeys.size >= 10_000) this.callerKeys.clear();
      key = `${this.prefix}rl:${sha256(caller).toString('base64url').slice(0, 22)}`;
      this.callerKeys.set(caller, key);
    }
    return key;
  }

  private readonly callerKeys = new Map<string, string>();

  byAccount() {
    return this.middleware((_req, res) => `acct:${principalOf(res).custid}`);
  }

  /** The caller's account when it sent credentials, else its address. */
  byAccountOrIp() {
    return this.middleware((req, res) => (res.locals['principal'] ? `acct:${principalOf(res).custid}` : `ip:${req.ip ?? 'unknown'}`));
  }

  byIp() {
    return this.middleware((req) => `ip:${req.ip ?? 'unknown'}`);
  }

  private middleware(callerOf: (req: Request, res: Response) => string) {
    return async (req: Request, res: Response, next: NextFunction) => {
      const retryAfter = await this.hit(callerOf(req, res));
      if (retryAfter > 0) throw new RateLimitedError(retryAfter);
      next();
    };
  }
}

import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { RateLimits, type RateLimit } from '@hush/common';
import { RateLimitedError } from '../errors.js';
import { principalOf } from '../auth/authenticate.js';

/**
 * RATE_LIMIT_MAX requests per caller per RATE_LIMIT_WINDOW seconds, shared by every instance
 * through Redis (held per process while Redis is unreachable), then 429 with Retry-After. The
 * caller is the account for authenticated routes and the client IP for reading secrets.
 * A maximum of 0 turns the limit off.
 */
export class RateLimiter {
  private readonly limit: RateLimit | undefined;

  /** `name` keeps the counters of separate limits apart (`rl`: RATE_LIMIT_*; `anon`: ANONYMOUS_RATE_LIMIT_*). */
  constructor(redis: Redis, prefix: string, max: number, windowSeconds: number, name = 'rl') {
    this.limit = max === 0 ? undefined : new RateLimits(redis, prefix).define(name, max, windowSeconds);
  }

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
    const limit = this.limit;
    return async (req: Request, res: Response, next: NextFunction) => {
      const retryAfter = limit ? await limit.consume(callerOf(req, res)) : 0;
      if (retryAfter > 0) throw new RateLimitedError(retryAfter);
      next();
    };
  }
}

/**
 * Failed authentications (a wrong API token or access token) per client IP: AUTH_MAX_FAILURES per
 * AUTH_FAILURE_WINDOW seconds, then 429 with Retry-After for further failures (auth/authenticate.ts).
 */
export function authFailureLimit(redis: Redis, config: { REDIS_PREFIX: string; AUTH_MAX_FAILURES: number; AUTH_FAILURE_WINDOW: number }): RateLimit {
  return new RateLimits(redis, config.REDIS_PREFIX).define('auth-fail', config.AUTH_MAX_FAILURES, config.AUTH_FAILURE_WINDOW);
}

import type { Redis } from 'ioredis';
import { RateLimits, type RateLimit } from '@hush/common';
import type { Config } from '../config.js';

/**
 * Failures counted (bad client secrets, bad passwords, bad second-factor codes), in
 * AUTH_FAILURE_WINDOW windows shared by every instance (Redis): a key at its maximum is blocked
 * until its window ends, and the window never grows. Rules:
 * - client authentication counts per client bucket and per IP, and a block only refuses further
 *   failures (client-auth-failures.ts): a failure is counted and answered in one atomic step;
 * - sign-in counts per (username, IP) and per IP, and a block refuses every attempt, since
 *   passwords can be guessed; someone else's failures never lock a person out from their own
 *   address;
 * - second-factor codes count per person (any address: a code is only asked after the password);
 * - a password or code is checked only with its attempt counted first, given back if it was right
 *   (RateLimits#attempt): however many arrive at once, on however many instances, no more than
 *   the maximum are checked in a window.
 */
export interface FailureLimits {
  limits: RateLimits;
  client: { perClient: RateLimit; perIp: RateLimit; buckets: number };
  login: { perUser: RateLimit; perIp: RateLimit };
  /** Wrong TOTP or recovery codes, per person: a block refuses every code (it could be guessed). */
  secondFactor: { perUser: RateLimit };
}

type LimitsConfig = Pick<
  Config,
  | 'REDIS_PREFIX'
  | 'AUTH_FAILURE_WINDOW'
  | 'CLIENT_AUTH_MAX_FAILURES'
  | 'CLIENT_AUTH_MAX_FAILURES_PER_IP'
  | 'CLIENT_AUTH_BUCKETS'
  | 'LOGIN_MAX_FAILURES'
  | 'LOGIN_MAX_FAILURES_PER_IP'
  | 'SECOND_FACTOR_MAX_FAILURES'
>;

export function createFailureLimits(redis: Redis, config: LimitsConfig): FailureLimits {
  const limits = new RateLimits(redis, `${config.REDIS_PREFIX}fail:`);
  const window = config.AUTH_FAILURE_WINDOW;
  return {
    limits,
    client: {
      perClient: limits.define('client', config.CLIENT_AUTH_MAX_FAILURES, window),
      perIp: limits.define('client-ip', config.CLIENT_AUTH_MAX_FAILURES_PER_IP, window),
      buckets: config.CLIENT_AUTH_BUCKETS,
    },
    login: { perUser: limits.define('login', config.LOGIN_MAX_FAILURES, window), perIp: limits.define('login-ip', config.LOGIN_MAX_FAILURES_PER_IP, window) },
    secondFactor: { perUser: limits.define('second-factor', config.SECOND_FACTOR_MAX_FAILURES, window) },
  };
}

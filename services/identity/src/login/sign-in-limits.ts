import type { RateLimit, RateLimits } from '@hush/common';
import type { Config } from '../config.js';

/**
 * Failed sign-ins counted in AUTH_FAILURE_WINDOW windows shared by every instance (Redis): a key
 * at its maximum is blocked until its window ends, and the window never grows. Rules:
 * - passwords count per (username, IP) and per IP, and a block refuses every attempt, since
 *   passwords can be guessed; someone else's failures never lock a person out from their own
 *   address;
 * - second-factor codes (TOTP, recovery codes) count per person, from any address: a code is only
 *   asked after the password, and a block refuses every code;
 * - a password or code is checked only with its attempt counted first, given back if it was right
 *   (RateLimits#attempt): however many arrive at once, on however many instances, no more than
 *   the maximum are checked in a window.
 * The account console's password and second-factor pages count against the same limits.
 */
export interface SignInLimits {
  limits: RateLimits;
  login: { perUser: RateLimit; perIp: RateLimit };
  /** Wrong TOTP or recovery codes, per person. */
  secondFactor: { perUser: RateLimit };
}

type SignInLimitsConfig = Pick<Config, 'AUTH_FAILURE_WINDOW' | 'LOGIN_MAX_FAILURES' | 'LOGIN_MAX_FAILURES_PER_IP' | 'SECOND_FACTOR_MAX_FAILURES'>;

/** The sign-in limits, defined on the failure counters (`limits`, shared with the client authentication limits). */
export function signInLimits(limits: RateLimits, config: SignInLimitsConfig): SignInLimits {
  const window = config.AUTH_FAILURE_WINDOW;
  return {
    limits,
    login: { perUser: limits.define('login', config.LOGIN_MAX_FAILURES, window), perIp: limits.define('login-ip', config.LOGIN_MAX_FAILURES_PER_IP, window) },
    secondFactor: { perUser: limits.define('second-factor', config.SECOND_FACTOR_MAX_FAILURES, window) },
  };
}

import type { Response } from 'express';
import type { PageMessages } from './messages/index.js';

/** What a limit counted (the sentence names it). */
export type LimitedThing = 'wrongPasswords' | 'wrongCodes' | 'failedSignIns' | 'pageViews';

/**
 * A page's answer past a limit: sets Retry-After on `res` and returns the sentence the page shows
 * in its language ("Too many wrong codes. Try again in 2 minutes."); the caller sends its page with 429.
 */
export function refusedForLimit(res: Response, retryAfterSeconds: number, m: PageMessages, what: LimitedThing): string {
  res.set('Retry-After', String(retryAfterSeconds));
  return m.text('limits.refused', { what, minutes: Math.ceil(retryAfterSeconds / 60) });
}

import type { Response } from 'express';

/**
 * A page's answer past a limit: sets Retry-After on `res` and returns the sentence the page shows
 * ("Too many wrong codes. Try again in 2 minute(s)."); the caller sends its page with 429.
 */
export function refusedForLimit(res: Response, retryAfterSeconds: number, tooMany: string): string {
  res.set('Retry-After', String(retryAfterSeconds));
  return `Too many ${tooMany}. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`;
}

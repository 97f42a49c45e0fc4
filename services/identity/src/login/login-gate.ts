import type { NextFunction, Request, Response } from 'express';
import { SignInsInProgressError } from '../errors.js';
import type { PasswordCheck, Passwords } from '../users/index.js';

/**
 * What a sign-in (the login form's POST) passes before its body is even read: a refusal here is
 * the cheapest answer the service can give, and so is all a flood of sign-ins gets. Rules:
 * - one IP has at most LOGIN_CONCURRENCY_PER_IP sign-ins in progress on this instance; one more
 *   is refused at once (SignInsInProgressError: 429, Retry-After 1), so one address cannot take
 *   every bcrypt worker;
 * - the sign-in takes its place in the bcrypt pool first: when the pool is full it is refused at
 *   once (BcryptPoolBusyError: 503 with Retry-After), costing no database read and no attempt of
 *   the sign-in limits;
 * - both are given back when the response ends (sent, or the connection closed).
 */
export function loginGate(passwords: Pick<Passwords, 'reserve'>, perIp: number) {
  const inProgress = new Map<string, number>();
  const places = new WeakMap<Response, PasswordCheck>();
  const leave = (ip: string) => {
    const left = (inProgress.get(ip) ?? 1) - 1;
    if (left > 0) inProgress.set(ip, left);
    else inProgress.delete(ip);
  };
  return {
    /** Express middleware: lets the sign-in in, or refuses it (the error goes to the page error handler). */
    enter: (req: Request, res: Response, next: NextFunction): void => {
      const ip = req.ip ?? 'unknown';
      const now = inProgress.get(ip) ?? 0;
      if (now >= perIp) return next(new SignInsInProgressError());
      let place: PasswordCheck;
      try {
        place = passwords.reserve();
      } catch (err) {
        return next(err);
      }
      inProgress.set(ip, now + 1);
      places.set(res, place);
      res.once('close', () => {
        leave(ip);
        place.release();
      });
      next();
    },
    /** The place in the bcrypt pool the sign-in of `res` took in `enter`, to check its password in. */
    placeOf: (res: Response): PasswordCheck => {
      const place = places.get(res);
      if (!place) throw new Error('the login gate was not passed');
      return place;
    },
  };
}

export type LoginGate = ReturnType<typeof loginGate>;

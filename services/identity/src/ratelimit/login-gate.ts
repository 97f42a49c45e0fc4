import type { Request, Response } from 'express';
import type { PasswordCheck, Passwords } from '../accounts/passwords.js';
import { SignInsInProgressError } from '../errors.js';

/**
 * What a sign-in (the login form's POST) passes before anything is looked up, read or counted.
 * Rules:
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
  const leave = (ip: string) => {
    const left = (inProgress.get(ip) ?? 1) - 1;
    if (left > 0) inProgress.set(ip, left);
    else inProgress.delete(ip);
  };
  return {
    /** Lets the sign-in in (or throws): the place in the bcrypt pool to check its password in. */
    enter(req: Request, res: Response): PasswordCheck {
      const ip = req.ip ?? 'unknown';
      const now = inProgress.get(ip) ?? 0;
      if (now >= perIp) throw new SignInsInProgressError();
      const check = passwords.reserve();
      inProgress.set(ip, now + 1);
      res.once('close', () => {
        leave(ip);
        check.release();
      });
      return check;
    },
  };
}

export type LoginGate = ReturnType<typeof loginGate>;

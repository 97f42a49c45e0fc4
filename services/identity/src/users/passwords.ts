import { randomToken, type BcryptPlace, type BcryptPool } from '@hush/common';

/**
 * User passwords: bcrypt (slow on purpose), never on the event loop. Rules:
 * - every hash and comparison runs in the bcrypt pool's worker threads (@hush/common
 *   bcrypt-pool.ts, shared with the secrets service): PASSWORD_WORKERS threads, at most
 *   PASSWORD_QUEUE jobs waiting; one more is refused at once (BcryptPoolBusyError: 503 with
 *   Retry-After), whoever asked (sign-in, reset, admin API, CLI);
 * - a sign-in takes its place in the pool before anything else (`reserve`), so a refused one
 *   costs nothing, not even an attempt of the sign-in limits;
 * - an unknown username is compared with a hash of a random password at the same cost, so the
 *   time of the answer does not tell which usernames exist;
 * - passwords over 72 bytes are refused rather than silently truncated by bcrypt.
 */
export const MAX_PASSWORD_BYTES = 72;

/** Checks one password in a place already taken in the pool (Passwords#reserve). */
export interface PasswordCheck {
  verify(password: string, hash: string): Promise<boolean>;
  /** The hash an unknown username is compared with. */
  dummyHash(): Promise<string>;
  /** Gives the place back if no password was checked in it. */
  release(): void;
}

export class Passwords {
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly pool: BcryptPool,
    private readonly cost: number,
  ) {}

  hash(password: string): Promise<string> {
    return this.pool.hash(password, this.cost);
  }

  /** Whether `password` matches `hash` (false when `hash` is no bcrypt hash, as a service account's). */
  verify(password: string, hash: string): Promise<boolean> {
    return this.pool.compare(password, hash);
  }

  /** Made on first use (the app's start makes it: a bcrypt hash at full cost is slow), again if that failed (the pool was full). */
  dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomToken()).catch((err: unknown) => {
      this.dummy = undefined;
      throw err;
    });
    return this.dummy;
  }

  /** A place in the pool for one check, taken now; throws BcryptPoolBusyError when the pool is full. */
  reserve(): PasswordCheck {
    const place: BcryptPlace = this.pool.reserve();
    return { verify: (password, hash) => place.compare(password, hash), dummyHash: () => this.dummyHash(), release: () => place.release() };
  }

  /** Ends the worker threads (after the jobs in hand). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import type { WebSession } from './sessions.js';

/**
 * The web session cookie as a passport strategy: success with the live session of the request's
 * cookie, a failure without one (no cookie, unknown, expired, ended by identity). What a page does
 * without a session (sign in first, or go on anonymously) is the caller's choice.
 */
export class WebSessionStrategy extends Strategy {
  readonly name = 'web-session';

  constructor(private readonly load: (req: Request) => Promise<WebSession | undefined>) {
    super();
  }

  override authenticate(req: Request): void {
    this.load(req).then(
      (session) => (session ? this.success(session) : this.fail(401)),
      (err: unknown) => this.error(err instanceof Error ? err : new Error(String(err))),
    );
  }
}

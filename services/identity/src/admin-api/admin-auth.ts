import type { NextFunction, Request, RequestHandler, Response } from 'express';
import passport, { Passport, type StrategyCreated } from 'passport';
import { AdminForbiddenError, AdminUnauthorizedError } from '../errors.js';
import type { AdminRole } from '../roles/index.js';
import { hasAnyRole, type AdminCaller } from './admin-caller.js';
import type { AdminTokenVerifier } from './admin-tokens.js';

// No session: every admin call carries its bearer token; the caller goes to res.locals.
const OPTIONS = { session: false, assignProperty: 'adminCaller', authInfo: false } as const;

/**
 * The admin API's authentication (passport, one bearer strategy) and authorization (the route's
 * realm-management roles). No token or a bad one: 401; a valid token without the role: 403.
 */
export function adminAuthenticator(verifier: Pick<AdminTokenVerifier, 'verify'>) {
  const instance = new Passport();
  instance.use('admin-bearer', new BearerStrategy(verifier));
  const authenticate = instance.authenticate('admin-bearer', OPTIONS) as RequestHandler;

  return function requireRoles(roles: readonly AdminRole[]): RequestHandler[] {
    function authorize(req: Request, res: Response, next: NextFunction): void {
      const caller = (req as Request & { adminCaller?: AdminCaller }).adminCaller;
      if (!caller) throw new AdminUnauthorizedError();
      if (!hasAnyRole(caller, roles)) throw new AdminForbiddenError();
      res.locals['adminCaller'] = caller;
      next();
    }
    return [authenticate, authorize];
  };
}

class BearerStrategy extends passport.Strategy {
  override readonly name = 'admin-bearer';

  constructor(private readonly verifier: Pick<AdminTokenVerifier, 'verify'>) {
    super();
  }

  override authenticate(req: Request): void {
    // passport calls this on its per-request attempt object, which carries the actions.
    const attempt = this as unknown as StrategyCreated<BearerStrategy>;
    const header = req.headers.authorization ?? '';
    const match = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    if (!match?.[1]) return attempt.error(new AdminUnauthorizedError());
    this.verifier.verify(match[1], req.ip).then(
      (caller) => (caller ? attempt.success(caller) : attempt.error(new AdminUnauthorizedError())),
      (err: unknown) => attempt.error(err as Error),
    );
  }
}

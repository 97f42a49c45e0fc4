import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import type { RateLimit } from '@hush/common';
import type { AccountsDeps } from '../accounts/accounts.js';
import { InsufficientScopeError, UserTokenRequiredError } from '../errors.js';
import type { AccessTokenVerifier } from './access-tokens.js';
import { anonymousPrincipal, type Principal, type Scope } from './principal.js';
import { apiStrategies, schemeOf } from './strategies.js';

/**
 * Who may call a route, declared with the route (http/api.routes.ts):
 * - `required`: credentials holding `scopes`; `userToken`: only a person's own access token
 *   (managing that person's API tokens);
 * - `optional`: where a key in the path is the capability: no credentials is fine; sent ones must
 *   be valid and hold the scopes (Onetime Secret refuses wrong ones even where none are needed);
 * - `anonymous`: as `optional`, the caller without credentials being the anonymous principal,
 *   when ANONYMOUS_SHARES is on; as `required` when it is off;
 * - `public`: a document anyone may read; credentials are not looked at.
 */
export type Credentials =
  { accept: 'required'; scopes: readonly Scope[]; userToken?: boolean } | { accept: 'optional' | 'anonymous'; scopes: readonly Scope[] } | { accept: 'public' };

/** What each route's credentials entry becomes: the middleware that runs before its rate limit. */
export interface Authenticator {
  middleware(credentials: Credentials, options: { anonymousShares: boolean }): RequestHandler[];
}

// No session: every API request carries its credentials. `req.user` takes the principal, and
// passport's auth-info transform (a per-request callback chain) is skipped.
const OPTIONS = { session: false, assignProperty: 'user', authInfo: false } as const;

/**
 * Every request with credentials goes through `passport.authenticate`, on a passport instance of
 * this app (tests build several apps in one process, each with its own verifier). The middleware
 * is built once here, at start-up: per request passport then only makes its attempt object for
 * the one strategy the Authorization scheme names (Bearer, else Basic), and the request's scheme
 * decides which, so no request pays for a strategy that cannot apply.
 */
export function createAuthenticator(accounts: Pick<AccountsDeps, 'tokens' | 'tokenCache'>, verifier: Pick<AccessTokenVerifier, 'verify'>, failures: RateLimit): Authenticator {
  const passport = new Passport();
  const strategies = apiStrategies(accounts, verifier, failures);
  passport.use('basic', strategies.basic);
  passport.use('bearer', strategies.bearer);
  passport.use('refused', strategies.refused);
  const viaBearer = passport.authenticate('bearer', OPTIONS) as RequestHandler;
  const viaBasic = passport.authenticate(['basic', 'refused'], OPTIONS) as RequestHandler;

  function authenticate(req: Request, res: Response, next: NextFunction): void {
    (schemeOf(req) === 'bearer' ? viaBearer : viaBasic)(req, res, next);
  }
  // A request without credentials on a route that needs none has nothing to authenticate.
  function authenticateIfSent(req: Request, res: Response, next: NextFunction): void {
    if (req.headers.authorization === undefined) return next();
    authenticate(req, res, next);
  }

  return {
    middleware(credentials, { anonymousShares }) {
      switch (credentials.accept) {
        case 'public':
          return [];
        case 'required':
          return [authenticate, authorize(credentials.scopes, credentials.userToken === true, undefined)];
        case 'optional':
          return [authenticateIfSent, authorize(credentials.scopes, false, () => undefined)];
        case 'anonymous':
          if (!anonymousShares) return [authenticate, authorize(credentials.scopes, false, undefined)];
          return [authenticateIfSent, authorize(credentials.scopes, false, anonymousPrincipal)];
      }
    },
  };
}

/**
 * After passport: the principal must hold every scope (and be a user token where asked); it goes
 * to res.locals.principal. `unauthenticated` says who calls without credentials (undefined: nobody
 * may, which passport has already refused).
 */
function authorize(scopes: readonly Scope[], userToken: boolean, unauthenticated: (() => Principal | undefined) | undefined): RequestHandler {
  return function authorize(req, res, next) {
    const principal = req.user as Principal | undefined;
    if (principal === undefined) {
      const nobody = unauthenticated?.();
      if (nobody) res.locals['principal'] = nobody;
      return next();
    }
    const missing = scopes.find((s) => !principal.scopes.has(s));
    if (missing) throw new InsufficientScopeError(missing);
    if (userToken && principal.via !== 'user_token') throw new UserTokenRequiredError();
    res.locals['principal'] = principal;
    next();
  };
}

export const principalOf = (res: Response): Principal => res.locals['principal'] as Principal;

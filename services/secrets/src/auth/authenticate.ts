import type { NextFunction, Request, Response } from 'express';
import { parseBasicAuth, type RateLimit } from '@hush/common';
import { authenticateApiToken, type AccountsDeps } from '../accounts/accounts.js';
import { CredentialsRequiredError, InsufficientScopeError, InvalidCredentialsError, InvalidTokenError, TooManyAuthFailuresError, UserTokenRequiredError } from '../errors.js';
import type { AccessTokenVerifier } from './access-tokens.js';
import { SCOPES, type Principal, type Scope } from './principal.js';

/**
 * Two ways in:
 * - HTTP Basic `username:api_token` (Onetime Secret's scheme): an API token
 *   grants both scopes of its account;
 * - `Bearer <access token>` from identity, with the scopes the token carries.
 * Reading a secret needs neither (a recipient has no account); everything else names its scope.
 *
 * Failed authentications are counted per client IP (`failures`); past the limit a further failure
 * is 429 with Retry-After instead of 401. API tokens and access tokens cannot be guessed, so the
 * limit is there to make a failing caller back off and to bound the load it makes, not to guard
 * them: the credential is always checked, and a right one is accepted even from a blocked
 * address, so nobody sharing it (or trying to lock an account out) can refuse a valid caller.
 */
export function createAuthenticator(accounts: Pick<AccountsDeps, 'tokens' | 'tokenCache'>, verifier: AccessTokenVerifier, failures: RateLimit) {
  async function principalOf(req: Request): Promise<Principal> {
    try {
      return await verify(req);
    } catch (err) {
      if (err instanceof InvalidCredentialsError || err instanceof InvalidTokenError) {
        const retryAfter = await failures.consume(req.ip ?? 'unknown');
        if (retryAfter > 0) throw new TooManyAuthFailuresError(retryAfter);
      }
      throw err;
    }
  }

  async function verify(req: Request): Promise<Principal> {
    const header = req.get('authorization');
    if (!header) throw new CredentialsRequiredError();
    const scheme = header.slice(0, header.indexOf(' ') >>> 0).toLowerCase();
    if (scheme === 'bearer') {
      const principal = await verifier.verify(header.slice(7).trim());
      if (!principal) throw new InvalidTokenError();
      return principal;
    }
    if (scheme === 'basic') {
      const credentials = parseBasicAuth(header);
      // Both parts are required: an empty username or token is never an account's.
      const owner = credentials?.user && credentials.password ? await authenticateApiToken(accounts, credentials.user, credentials.password) : undefined;
      if (!owner) throw new InvalidCredentialsError();
      return { custid: owner.custid, scopes: new Set(Object.values(SCOPES)), via: 'api_token', plan: owner.plan };
    }
    throw new InvalidCredentialsError();
  }

  /** Middleware: authenticate, require every scope, put the caller in res.locals.principal. */
  function require(...scopes: Scope[]) {
    return async (req: Request, res: Response, next: NextFunction) => {
      const principal = await principalOf(req);
      const missing = scopes.find((s) => !principal.scopes.has(s));
      if (missing) throw new InsufficientScopeError(missing);
      res.locals['principal'] = principal;
      next();
    };
  }

  /** Where a key in the path is the capability: no credentials is fine; sent ones must be valid and hold the scopes. */
  function optional(...scopes: Scope[]) {
    const inner = require(...scopes);
    return async (req: Request, res: Response, next: NextFunction) => {
      if (req.get('authorization') === undefined) return next();
      await inner(req, res, next);
    };
  }

  /** Only a person's own access token may manage that person's API tokens. */
  function requireUser(...scopes: Scope[]) {
    const inner = require(...scopes);
    return async (req: Request, res: Response, next: NextFunction) => {
      await inner(req, res, () => undefined);
      if ((res.locals['principal'] as Principal).via !== 'user_token') throw new UserTokenRequiredError();
      next();
    };
  }

  return { require, optional, requireUser };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

export const principalOf = (res: Response): Principal => res.locals['principal'] as Principal;

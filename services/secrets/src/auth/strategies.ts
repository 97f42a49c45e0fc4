import type { Request } from 'express';
import passport, { type StrategyCreated } from 'passport';
import { BasicStrategy } from 'passport-http';
import type { RateLimit } from '@hush/common';
import { authenticateApiToken, type AccountsDeps } from '../accounts/accounts.js';
import { CredentialsRequiredError, InvalidCredentialsError, InvalidTokenError, TooManyAuthFailuresError } from '../errors.js';
import type { AccessTokenVerifier } from './access-tokens.js';
import { SCOPES, type Principal } from './principal.js';

/**
 * The passport strategies of the API, one per way in:
 * - `basic`: passport-http's HTTP Basic `username:api_token` (Onetime Secret's scheme); an API
 *   token grants both scopes of its account;
 * - `bearer`: identity's JWT access tokens, with the scopes the token carries;
 * - `refused`: the last word when Basic did not apply: no credentials, or a header that is
 *   neither a Basic nor a Bearer one.
 * Every strategy ends in `success` or `error` with the error the caller sees, never in passport's
 * own `fail` answer, so statuses, bodies and `WWW-Authenticate` are the API's (errors.ts).
 *
 * Failed authentications are counted per client IP (`failures`); past the limit a further failure
 * is 429 with Retry-After instead of 401. API tokens and access tokens cannot be guessed, so the
 * limit is there to make a failing caller back off and to bound the load it makes, not to guard
 * them: the credential is always checked, and a right one is accepted even from a blocked
 * address, so nobody sharing it (or trying to lock an account out) can refuse a valid caller.
 */
export function apiStrategies(accounts: Pick<AccountsDeps, 'tokens' | 'tokenCache'>, verifier: Pick<AccessTokenVerifier, 'verify'>, failures: RateLimit) {
  /** The error for a wrong credential, or 429 once this address has failed too often. */
  async function refusal(req: Request, err: InvalidCredentialsError | InvalidTokenError): Promise<Error> {
    const retryAfter = await failures.consume(req.ip ?? 'unknown');
    return retryAfter > 0 ? new TooManyAuthFailuresError(retryAfter) : err;
  }

  async function apiToken(req: Request, username: string, token: string): Promise<Principal> {
    // passport-http takes any scheme containing "basic"; ours is exactly that word.
    const owner = schemeOf(req) === 'basic' ? await authenticateApiToken(accounts, username, token) : undefined;
    if (!owner) throw await refusal(req, new InvalidCredentialsError());
    return { custid: owner.custid, scopes: new Set(Object.values(SCOPES)), via: 'api_token', plan: owner.plan };
  }

  async function accessToken(req: Request, token: string): Promise<Principal> {
    const principal = await verifier.verify(token);
    if (!principal) throw await refusal(req, new InvalidTokenError());
    return principal;
  }

  async function refused(req: Request): Promise<never> {
    if (req.headers.authorization === undefined) throw new CredentialsRequiredError();
    throw await refusal(req, new InvalidCredentialsError());
  }

  return {
    basic: new BasicStrategy({ passReqToCallback: true }, (req, username, token, done) => {
      apiToken(req, username, token).then((principal) => done(null, principal), done);
    }),
    bearer: new PromiseStrategy('bearer', (req) => accessToken(req, (req.headers.authorization ?? '').slice(7).trim())),
    refused: new PromiseStrategy('refused', refused),
  };
}

/** The scheme of the Authorization header, lower case ('' when there is none). */
export function schemeOf(req: Pick<Request, 'headers'>): string {
  const header = req.headers.authorization;
  if (header === undefined) return '';
  return header.slice(0, header.indexOf(' ') >>> 0).toLowerCase();
}

/** A strategy whose verdict is a promise: the principal, or the error the caller gets. */
class PromiseStrategy extends passport.Strategy {
  constructor(
    override readonly name: string,
    private readonly verdict: (req: Request) => Promise<Principal>,
  ) {
    super();
  }

  override authenticate(req: Request): void {
    // passport calls this on its per-request attempt object, which carries the actions.
    const attempt = this as unknown as StrategyCreated<PromiseStrategy>;
    this.verdict(req).then(
      (principal) => attempt.success(principal),
      (err: unknown) => attempt.error(err),
    );
  }
}

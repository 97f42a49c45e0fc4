import type { Request } from 'express';
import { BasicStrategy } from 'passport-http';

/**
 * HTTP Basic credentials (RFC 7617): the one parser of both services is passport-http's Basic
 * strategy (a library our users chose), driven here without passport's middleware: its verify
 * callback hands back what it parsed. What it accepts:
 * - the scheme is case-insensitive; user-id and password are both required (an empty one fails);
 * - the user-id ends at the first colon, and so does the password (passport-http splits on every
 *   colon): harmless for Hush, whose API tokens and client secrets are base64url, but a password
 *   holding a colon would be cut there.
 */
export interface BasicCredentials {
  user: string;
  password: string;
}

/** The actions passport gives a strategy for one request (passport-strategy's interface). */
interface StrategyActions {
  success(user: unknown): void;
  fail(): void;
  error(err: unknown): void;
  redirect(): void;
  pass(): void;
}

const ignore = (): void => undefined;
const strategy = new BasicStrategy((user, password, done) => done(null, { user, password }));

/** The credentials of a Basic `Authorization` header, or undefined when it is absent, another scheme or malformed. */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (!header) return undefined;
  let credentials: BasicCredentials | undefined;
  // One attempt object per call, as passport makes per request; the verify callback above is
  // synchronous, so success (or fail) has run when authenticate() returns.
  // The actions are an object literal's: V8 allocates a function literal assigned to a property
  // (`attempt.success = ...`) in the old generation, where it would keep this call's credentials
  // until the next full collection (see db.ts, guardReads).
  const actions: StrategyActions = {
    success: (parsed) => {
      credentials = parsed as BasicCredentials;
    },
    fail: ignore,
    error: ignore,
    redirect: ignore,
    pass: ignore,
  };
  const attempt = Object.assign(Object.create(strategy) as BasicStrategy, actions);
  attempt.authenticate({ headers: { authorization: header } } as Request);
  return credentials;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * OAuth client authentication with HTTP Basic (RFC 6749 §2.3.1): the client id and secret are
 * form-urlencoded (`+` is a space) before they are joined and base64-encoded. Undefined when the
 * header is not Basic, is malformed, or the client id is empty.
 */
export function parseBasicClientAuth(header: string | undefined): ClientCredentials | undefined {
  const credentials = parseBasicAuth(header);
  if (!credentials || credentials.user === '') return undefined;
  try {
    return { clientId: formDecode(credentials.user), clientSecret: formDecode(credentials.password) };
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded decoding of one value; throws URIError on a bad %-escape. */
const formDecode = (value: string): string => decodeURIComponent(value.replaceAll('+', '%20'));

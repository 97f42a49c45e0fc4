import type { ErrorRequestHandler } from 'express';
import {
  BcryptPoolBusyError,
  CrossOriginFormError,
  CsrfRejectedError,
  DependencyUnavailableError,
  pageErrorHandler,
  type DomainError,
  type Logger,
  type PageError,
} from '@hush/common';
import { SignInsInProgressError } from '../errors.js';

const FORM_REFUSED = 'the form expired or was not sent from this page; start again';
const EXPIRED = 'this sign-in page has expired; go back to the application and start again';

/**
 * How the sign-in pages word an error, in OAuth's codes: a refused form names itself; any other
 * client error (mostly an expired or missing interaction cookie, which oidc-provider reports with
 * internal wording) is the expired-page text; a dependency's outage is `temporarily_unavailable`,
 * and so are a full bcrypt pool and too many sign-ins from one address (shown as they are, with
 * their Retry-After); anything else is a fault (undefined).
 */
export function describeInteractionError(err: unknown, known: DomainError | undefined): PageError | undefined {
  if (known instanceof DependencyUnavailableError) return { status: known.status, code: 'temporarily_unavailable', message: known.message, headers: known.headers };
  if (known instanceof BcryptPoolBusyError || known instanceof SignInsInProgressError) return known;
  if (known instanceof CrossOriginFormError) return known;
  if (known instanceof CsrfRejectedError) return { status: known.status, code: 'invalid_request', message: FORM_REFUSED };
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  return status < 500 ? { status, code: 'invalid_request', message: EXPIRED } : undefined;
}

/** The page of a fault: no detail of it reaches the person. */
export const INTERACTION_FAULT = { code: 'server_error', message: 'please try again' };

/** The error handler of the sign-in pages (login, e-mailed links, registration): errors worded as above. */
export const signInPageErrors = (logger: Logger): ErrorRequestHandler => pageErrorHandler(logger, { fault: INTERACTION_FAULT, describe: describeInteractionError });

/** The error handler of a console's pages: a client error's own message, a fault's page says `fault` and nothing more. */
export const consolePageErrors = (logger: Logger, fault: string): ErrorRequestHandler => pageErrorHandler(logger, { fault: { message: fault } });

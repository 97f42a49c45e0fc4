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
import { identityErrorPage } from './error-page.js';
import type { PageKey } from './messages/index.js';

/** A page error whose message is a catalogue key, worded in the page's language by identityErrorPage. */
const worded = (status: number, code: string, key: PageKey, headers?: Readonly<Record<string, string>>): PageError => ({
  status,
  code,
  message: key,
  ...(headers ? { headers } : {}),
});

/**
 * How the sign-in pages word an error, in OAuth's codes: a refused form names itself; any other
 * client error (mostly an expired or missing interaction cookie, which oidc-provider reports with
 * internal wording) is the expired-page text; a dependency's outage is `temporarily_unavailable`,
 * and so are a full bcrypt pool and too many sign-ins from one address (with their status and
 * Retry-After); anything else is a fault (undefined).
 */
export function describeInteractionError(err: unknown, known: DomainError | undefined): PageError | undefined {
  if (known instanceof DependencyUnavailableError) return worded(known.status, 'temporarily_unavailable', 'errors.unavailable', known.headers);
  if (known instanceof BcryptPoolBusyError || known instanceof SignInsInProgressError) return worded(known.status, known.code, 'errors.unavailable', known.headers);
  if (known instanceof CrossOriginFormError) return worded(known.status, known.code, 'errors.formRefused');
  if (known instanceof CsrfRejectedError) return worded(known.status, 'invalid_request', 'errors.formRefused');
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  return status < 500 ? worded(status, 'invalid_request', 'errors.expired') : undefined;
}

/** How a console words an error: a refused form and an outage as the sign-in pages do; another client error by its own message. */
function describeConsoleError(_err: unknown, known: DomainError | undefined): PageError | undefined {
  if (known instanceof DependencyUnavailableError) return worded(known.status, 'temporarily_unavailable', 'errors.unavailable', known.headers);
  if (known instanceof CrossOriginFormError || known instanceof CsrfRejectedError) return worded(known.status, 'invalid_request', 'errors.formRefused');
  return known;
}

/** The page of a fault: no detail of it reaches the person (identityErrorPage words it). */
export const INTERACTION_FAULT = { code: 'server_error', message: 'errors.fault' };

/** The error handler of the sign-in pages (login, e-mailed links, registration): errors worded as above, on identity's error page. */
export const signInPageErrors = (logger: Logger): ErrorRequestHandler =>
  pageErrorHandler(logger, { fault: INTERACTION_FAULT, describe: describeInteractionError, render: identityErrorPage });

/**
 * The error handler of a console's pages, on identity's error page: a fault's page says `fault`
 * (a catalogue key, worded in the page's language, or a sentence shown as it is) and nothing more.
 */
export const consolePageErrors = (logger: Logger, fault: string = 'errors.consoleFault'): ErrorRequestHandler =>
  pageErrorHandler(logger, { fault: { message: fault }, describe: describeConsoleError, render: identityErrorPage });

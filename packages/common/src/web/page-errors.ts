import type { ErrorRequestHandler, Request } from 'express';
import { reportUnavailable, toDomainError, type DomainError } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import { requestLogger } from '../http/request-log.js';
import { sendErrorPage, type ErrorPageRenderer } from './error-page.js';

/**
 * The one error handler of our HTML pages (secrets' pages and web app, identity's sign-in pages).
 * Rules:
 * - what the service can name is shown as an error page with its status, code and headers: by
 *   default a `DomainError` (after `toDomainError`) as it is, or as the service's `describe` words it;
 * - a dependency's outage goes to its outage log, once per outage;
 * - anything else is a fault: logged with its detail, shown as a 500 with the fixed `fault` text;
 * - the page is the service's own (`render`: its header, its language) when it gives one.
 */
export interface PageError {
  status: number;
  /** Shown to the person: never an internal detail. */
  message: string;
  code?: string | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
}

export interface PageErrorOptions {
  /** The page of a fault: no detail of it reaches the person. */
  fault: { message: string; code?: string };
  /** How this service words an error on its pages (`known`: the error as a DomainError, if it is one); undefined: a fault. */
  describe?: (err: unknown, known: DomainError | undefined, req: Request) => PageError | undefined;
  /** The service's error page; without it, the bare `errorPage`. */
  render?: ErrorPageRenderer | undefined;
}

const asItIs = (_err: unknown, known: DomainError | undefined): PageError | undefined => known;

export function pageErrorHandler(logger: Logger, options: PageErrorOptions): ErrorRequestHandler {
  const describe = options.describe ?? asItIs;
  const fault: PageError = { status: 500, ...options.fault };
  return (err: unknown, req, res, _next) => {
    const known = toDomainError(err);
    if (known) reportUnavailable(logger, known, res);
    const page = describe(err, known, req);
    if (!page) requestLogger(logger, res).error({ err }, 'page failed');
    sendErrorPage(req, res, page ?? { ...fault, fault: true }, options.render);
  };
}

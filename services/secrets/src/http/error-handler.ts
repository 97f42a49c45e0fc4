import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { domainErrorMiddleware, type Logger } from '@hush/common';
import { RouteNotFoundError } from '../errors.js';
import { BODY_LIMIT } from './body.js';

/**
 * The one place the API's errors become responses: `{ "message", "code" }` (Onetime Secret's
 * `message` plus a stable code) with the error's status and headers. Parser failures are the
 * caller's (4xx, see `toDomainError`); anything else is a generic 500 whose detail goes to the
 * log only.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return domainErrorMiddleware(logger, {
    bodyLimit: BODY_LIMIT,
    body: (err) => ({ message: err.message, code: err.code }),
    fault: { message: 'An unexpected error occurred', code: 'internal_error' },
  });
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new RouteNotFoundError());
}

import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { domainErrorMiddleware, type Logger } from '@hush/common';
import { RouteNotFoundError } from '../errors.js';
import type { ApiDialect } from './dialect.js';
import { BODY_LIMIT } from './body.js';

/**
 * The one place the API's errors become responses, in the API dialect's shape (http/dialect.ts):
 * `spec` answers `{ "message", "code" }` with the error's status and headers; `onetimesecret`
 * answers Onetime Secret's `{ "message" }` (+ `secret_key`) with 404. Parser failures are the
 * caller's (4xx, see `toDomainError`); anything else is a generic 500 whose detail goes to the
 * log only.
 */
export function errorHandler(logger: Logger, dialect: Pick<ApiDialect, 'errorBody' | 'errorStatus' | 'fault'>): ErrorRequestHandler {
  return domainErrorMiddleware(logger, {
    bodyLimit: BODY_LIMIT,
    body: (err, res) => dialect.errorBody(err, res),
    status: (err) => dialect.errorStatus(err),
    fault: dialect.fault,
  });
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new RouteNotFoundError());
}

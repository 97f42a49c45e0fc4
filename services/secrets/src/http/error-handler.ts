import type { NextFunction, Request, Response } from 'express';
import { toDomainError, type Logger } from '@hush/common';
import { RouteNotFoundError } from '../errors.js';
import { BODY_LIMIT } from './body.js';

/**
 * The one place the API's errors become responses: `{ "message", "code" }` (Onetime Secret's
 * `message` plus a stable code) with the error's status and headers. Parser failures are the
 * caller's (`toDomainError` maps them to 4xx); anything else is a generic 500 whose detail goes
 * to the log only.
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = toDomainError(err, BODY_LIMIT);
    if (!known) {
      logger.error({ err, reqId: res.get('X-Request-Id') }, 'unhandled error');
      res.status(500).json({ message: 'An unexpected error occurred', code: 'internal_error' });
      return;
    }
    res.set(known.headers).status(known.status).json({ message: known.message, code: known.code });
  };
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new RouteNotFoundError());
}

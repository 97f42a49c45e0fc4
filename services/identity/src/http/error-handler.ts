import type { NextFunction, Request, Response } from 'express';
import { toDomainError, type Logger } from '@hush/common';
import { EndpointNotFoundError } from '../errors.js';

/**
 * The one place identity's Express routes turn errors into JSON, in RFC 6749's shape
 * (`{ error, error_description }`): a `DomainError` (or a parser failure `toDomainError`
 * recognises) answers its status with `error` = its code; anything else is a generic 500
 * `server_error` whose detail goes to the log only. oidc-provider answers its own protocol
 * errors, and the login pages render theirs (interactions.routes.ts).
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = toDomainError(err);
    if (!known) {
      logger.error({ err }, 'unhandled error');
      res.status(500).json({ error: 'server_error', error_description: 'internal error' });
      return;
    }
    res.set(known.headers).status(known.status).json({ error: known.code, error_description: known.message });
  };
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new EndpointNotFoundError());
}

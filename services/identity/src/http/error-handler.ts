import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { domainErrorMiddleware, type Logger } from '@hush/common';
import { EndpointNotFoundError } from '../errors.js';

/**
 * The one place identity's Express routes turn errors into JSON, in RFC 6749's shape
 * (`{ error, error_description }`): a `DomainError` answers its status with `error` = its code;
 * anything else is a generic 500 `server_error` whose detail goes to the log only.
 * oidc-provider answers its own protocol errors, and the login pages render theirs
 * (login/login.routes.ts).
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return domainErrorMiddleware(logger, {
    body: (err) => ({ error: err.code, error_description: err.message }),
    fault: { error: 'server_error', error_description: 'internal error' },
  });
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new EndpointNotFoundError());
}

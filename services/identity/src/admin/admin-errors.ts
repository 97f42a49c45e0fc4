import type { ErrorRequestHandler } from 'express';
import { domainErrorMiddleware, type Logger } from '@hush/common';

/**
 * The one place the admin API turns errors into responses, in Keycloak's shapes: its
 * `{ "errorMessage" }` for refused input (400) and conflicts (409); `{ "error", "error_description" }`
 * for the rest (401, 403, 404, 503); a generic 500 whose detail goes only to the log.
 */
export function adminErrorHandler(logger: Logger): ErrorRequestHandler {
  return domainErrorMiddleware(logger, {
    body: (err) => (err.status === 400 || err.status === 409 ? { errorMessage: err.message } : { error: err.message, error_description: err.code }),
    fault: { error: 'unknown_error' },
    bodyLimit: '256kb',
  });
}

import type { ErrorRequestHandler } from 'express';
import { domainErrorMiddleware, type Logger } from '@hush/common';
import { HANDOVER_HEADER } from './handovers.routes.js';

/**
 * The one place the admin API turns errors into responses, in Keycloak's shapes: its
 * `{ "errorMessage" }` for refused input (400) and conflicts (409); `{ "error", "error_description" }`
 * for the rest (401, 403, 404, 503); a generic 500 whose detail goes only to the log. A receipt
 * named before the failure is not: its change was rolled back (admin-transaction.ts).
 */
export function adminErrorHandler(logger: Logger): ErrorRequestHandler {
  const respond = domainErrorMiddleware(logger, {
    body: (err) => (err.status === 400 || err.status === 409 ? { errorMessage: err.message } : { error: err.message, error_description: err.code }),
    fault: { error: 'unknown_error' },
    bodyLimit: '256kb',
  });
  return function adminError(err, req, res, next) {
    res.removeHeader(HANDOVER_HEADER);
    respond(err, req, res, next);
  };
}

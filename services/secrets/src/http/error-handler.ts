import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import type { Logger } from '@hush/common';
import { ApiError, MalformedBodyError, PayloadTooLargeError, RouteNotFoundError, UnsupportedMediaTypeError } from '../errors.js';
import { BODY_LIMIT } from './body.js';

/**
 * The one place errors become responses: `{ "message", "code" }` (Onetime Secret's `message`
 * plus a stable code) with the error's status. Body-parser and multer failures are the caller's
 * (4xx); anything else is a generic 500 whose detail goes to the log only.
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(err);
    if (!apiError) {
      logger.error({ err, reqId: res.get('X-Request-Id') }, 'unhandled error');
      res.status(500).json({ message: 'An unexpected error occurred', code: 'internal_error' });
      return;
    }
    res.set(apiError.headers).status(apiError.status).json({ message: apiError.message, code: apiError.code });
  };
}

export function notFound(_req: Request, _res: Response, next: NextFunction) {
  next(new RouteNotFoundError());
}

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof multer.MulterError) {
    return err.code === 'LIMIT_FIELD_VALUE' ? new PayloadTooLargeError(BODY_LIMIT) : new MalformedBodyError(`multipart form rejected: ${err.message} (files are not accepted)`);
  }
  const e = err as { type?: string; status?: number; expose?: boolean } | null;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new MalformedBodyError('the request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeError(BODY_LIMIT);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError('unsupported body encoding or charset');
  }
  // Any other client error raised by a parser (aborted request, bad multipart boundary...).
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new MalformedBodyError('the request body could not be read');
  if (err instanceof Error && /^(Multipart|Malformed part header|Unexpected end of form)/i.test(err.message)) return new MalformedBodyError('the multipart body is malformed');
  return undefined;
}

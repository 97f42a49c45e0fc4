import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@hush/common';

/** Keys in paths are capabilities: logs get the route shape, never the key. */
export function logPath(path: string): string {
  return path
    .replace(/\/(secret|private|metadata|receipt)\/(?!recent(?:\/|$))[^/]+/g, '/$1/:key')
    .replace(/\/api-token\/[^/]+/g, '/api-token/:id');
}

/**
 * A request id on every response (X-Request-Id, taken from the caller when it is sane) and one
 * log line per request: method, route shape, status, duration. No query string (parameters may
 * travel there), no body, no account name (it may be an e-mail address).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const id = incoming && /^[A-Za-z0-9._-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      // Below LOG_LEVEL=debug only failures are logged: build nothing for the other requests.
      if (res.statusCode < 500 && !logger.isLevelEnabled('debug')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const line = { reqId: id, method: req.method, path: logPath(req.originalUrl.split('?')[0] ?? ''), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.debug(line, 'request');
    });
    next();
  };
}

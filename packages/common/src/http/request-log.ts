import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger.js';
import { releaseUnreadBody } from './unread-body.js';

/**
 * The request's id, as `requestLog` answered it in X-Request-Id; undefined before `requestLog`
 * ran (or without it).
 */
export function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader('x-request-id');
  return typeof id === 'string' ? id : undefined;
}

/**
 * The logger for a line written while handling a request: `logger` with the request's id, so every
 * line of a request can be found with its access-log line. Built when a line is to be written,
 * from the header `requestLog` set, so a request that logs nothing costs nothing; a handler that
 * logs several lines keeps the one it got. Not for outage logs (`reportUnavailable`), which are
 * one per service and dependency and take the id as a field.
 */
export function requestLogger(logger: Logger, res: ServerResponse): Logger {
  const reqId = requestIdOf(res);
  return reqId === undefined ? logger : logger.child({ reqId });
}

/** Express's request: Node's, plus the URL as received (Express rewrites `url` under routers). */
type Request = IncomingMessage & { originalUrl: string };

/**
 * Express middleware: a request id on every response (X-Request-Id, taken from the caller when it
 * is sane) and one log line per request: method, path, status, duration; failures (5xx) at error
 * level, the rest at debug. A 503 is not a failure of ours: a dependency is out (its outage log
 * says so once, see outage.ts), or the service is starting, stopping or not ready. No query
 * string (codes, tokens and parameters travel there), no body. Other lines of the request carry
 * its id through `requestLogger`. A body left unread is discarded once the answer is sent, so a
 * kept-alive connection serves its next request (unread-body.ts).
 * `logPath` rewrites the path first, for services whose paths carry capabilities.
 */
export function requestLog(logger: Logger, logPath: (path: string) => string = (path) => path) {
  return (req: Request, res: ServerResponse, next: () => void) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      if (!req.complete) releaseUnreadBody(req);
      // Below LOG_LEVEL=debug only failures are logged: build nothing for the other requests.
      const failed = res.statusCode >= 500 && res.statusCode !== 503;
      if (!failed && !logger.isLevelEnabled('debug')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const line = { reqId: id, method: req.method, path: logPath(req.originalUrl.split('?')[0] ?? ''), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (failed) logger.error(line, 'request failed');
      else logger.debug(line, 'request');
    });
    next();
  };
}

import { requestLog as logRequests, type Logger } from '@hush/common';

/** Keys in paths are capabilities: logs get the route shape, never the key. */
export function logPath(path: string): string {
  return path.replace(/\/(secret|private|metadata|receipt)\/(?!recent(?:\/|$))[^/]+/g, '/$1/:key').replace(/\/api-token\/[^/]+/g, '/api-token/:id');
}

/**
 * A request id and one log line per request (see @hush/common), with the route shape as the path.
 * No query string (parameters may travel there), no body, no account name (it may be an e-mail
 * address).
 */
export const requestLog = (logger: Logger) => logRequests(logger, logPath);

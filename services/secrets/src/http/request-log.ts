import { requestLog as logRequests, type Logger } from '@hush/common';
import { withoutCapabilities } from './api.routes.js';

/** Keys in paths are capabilities: logs get the route shape, never the key. */
export function logPath(path: string): string {
  return withoutCapabilities(path);
}

/**
 * A request id and one log line per request (see @hush/common), with the route shape as the path.
 * No query string (parameters may travel there), no body, no account name (it may be an e-mail
 * address).
 */
export const requestLog = (logger: Logger) => logRequests(logger, logPath);

import type { Server } from 'node:http';
import type { Logger } from '../logging/logger.js';

/**
 * Stops an HTTP server gracefully: no new connections; requests in flight finish; keep-alive
 * connections are closed as soon as they are idle (checked every 100 ms, since a connection that
 * finishes its request after close() would otherwise linger until its keep-alive timeout); after
 * `timeoutMs` whatever is left is cut.
 */
export async function closeGracefully(server: Server, timeoutMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(force);
  }
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT, after logging which one came; later signals are
 * ignored while it runs (an impatient second Ctrl-C must not start a second shutdown). `stop`
 * drains the service and ends the process itself.
 */
export function onShutdownSignal(logger: Logger, stop: () => void | Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      void stop();
    });
  }
}

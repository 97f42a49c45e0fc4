import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { once } from 'node:events';
import { ConfigError } from './config.js';
// Types only: importing infrastructure.js would load knex, pg and ioredis into every process.
import type { Infrastructure } from './infrastructure.js';
import { closeGracefully, onShutdownSignal } from './shutdown.js';

/**
 * What every service's `app.ts` returns. The factory only builds: `start()` opens what runs in
 * the background (timers, queues, workers, listeners), `close()` stops all of it, and the caller
 * owns the connections it passed in. `handler` is the node:http request listener;
 * `serverOptions`, if any, are the options of the node:http server it runs on.
 */
export interface ServiceApp {
  handler: RequestListener;
  serverOptions?: ServerOptions;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs a service's `main`. If start-up fails the process exits with 1 after one line on stderr,
 * prefixed with the service's name: a bad configuration shows only its message (it names every
 * bad key), anything else its stack.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`${name}: ${err.message}\n`);
    } else {
      process.stderr.write(`${name}: failed to start: ${(err as Error).stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
}

/**
 * Serves `app` on `port` and resolves once the server listens. The keep-alive timeout is above
 * the 60 s idle timeout usual in load balancers, so that the proxy, not us, closes an idle
 * connection, and never sends a request down one we are closing.
 */
export async function listen(app: RequestListener, port: number, options: ServerOptions = {}): Promise<Server> {
  const server = createServer(options, app);
  server.keepAliveTimeout = 65_000;
  server.listen(port);
  await once(server, 'listening');
  return server;
}

/**
 * Starts an HTTP service and serves it on `port` until SIGTERM/SIGINT; then, gracefully: no new
 * connections and in-flight requests finished (at most `drainMs`), the app closed, then the
 * database and Redis, and the process exits (1 if anything failed on the way).
 */
export async function serveUntilSignal(app: ServiceApp, port: number, infra: Infrastructure, drainMs = 10_000): Promise<Server> {
  await app.start();
  const server = await listen(app.handler, port, app.serverOptions);
  onShutdownSignal(infra.logger, async () => {
    let code = 0;
    try {
      await closeGracefully(server, drainMs);
      await app.close();
    } catch (err) {
      infra.logger.error({ err }, 'shutdown failed');
      code = 1;
    }
    await disconnect(infra);
    process.exit(code);
  });
  return server;
}

/** Closes the database pool and the Redis connection of `infra`. */
export async function disconnect(infra: Infrastructure): Promise<void> {
  await Promise.allSettled([infra.db.destroy(), infra.redis.quit()]);
}

import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { once } from 'node:events';
import { ConfigError } from './config.js';
// Types only: importing infrastructure.js would load knex, pg and ioredis into every process.
import type { Infrastructure } from './infrastructure.js';
import type { Logger } from './logger.js';
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

export interface ServeOptions {
  logger: Logger;
  /** Closes what the caller opened for the app (its database pool and Redis), once the app is closed. */
  disconnect?: () => Promise<void>;
  /** Longest wait (ms) for the requests in flight; then their connections are cut. */
  drainMs?: number;
  /**
   * `http-then-app` (default): the HTTP server carries the service's work, so it drains first and
   * the app closes behind it. `app-then-http`: the server only answers health and metrics, so it
   * keeps answering (/readyz 503) while the app finishes its own work (the mailer's jobs).
   */
  order?: 'http-then-app' | 'app-then-http';
  /**
   * Past this (ms) after the signal the process exits 1 with whatever is still running. The
   * orchestrator's grace period (Kubernetes terminationGracePeriodSeconds) must exceed it.
   */
  deadlineMs?: number;
}

/**
 * Starts a service and serves it on `port` until SIGTERM/SIGINT; then, gracefully: the HTTP
 * server and the app closed in `order`, then the caller's connections, and the process exits (1
 * if anything failed on the way, or if `deadlineMs` passed first).
 */
export async function serveUntilSignal(app: ServiceApp, port: number, options: ServeOptions): Promise<Server> {
  const { logger, disconnect, drainMs = 10_000, order = 'http-then-app', deadlineMs } = options;
  await app.start();
  const server = await listen(app.handler, port, app.serverOptions);
  const drain = () => closeGracefully(server, drainMs);
  onShutdownSignal(logger, async () => {
    if (deadlineMs !== undefined) {
      const deadline = setTimeout(() => {
        logger.error({ timeoutMs: deadlineMs }, 'shutdown timed out; exiting with work in flight');
        process.exit(1);
      }, deadlineMs);
      deadline.unref();
    }
    let code = 0;
    try {
      if (order === 'http-then-app') {
        await drain();
        await app.close();
      } else {
        await app.close();
        await drain();
      }
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      code = 1;
    }
    await disconnect?.();
    process.exit(code);
  });
  return server;
}

/** Closes the database pool and the Redis connection of `infra`. */
export async function disconnect(infra: Infrastructure): Promise<void> {
  await Promise.allSettled([infra.db.destroy(), infra.redis.quit()]);
}

/** What `serveUntilSignal` needs of an HTTP service's connections: its logger, and closing them last. */
export function servedOn(infra: Infrastructure): Pick<ServeOptions, 'logger' | 'disconnect'> {
  return { logger: infra.logger, disconnect: () => disconnect(infra) };
}

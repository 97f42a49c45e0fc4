import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { once } from 'node:events';
import { flushTraces } from '@hush/telemetry';
import { ConfigError } from '../config/config.js';
// Types only: importing infrastructure.js would load knex, pg and ioredis into every process.
import type { Infrastructure } from './infrastructure.js';
import type { Logger } from '../logging/logger.js';
import { closeRedis } from '../redis/redis.js';
import { closeGracefully, onShutdownSignal } from './shutdown.js';

/**
 * What every service's `app.ts` returns. The factory only builds: `start()` opens what runs in
 * the background (timers, queues, workers, listeners), `close()` stops all of it, and the caller
 * owns the connections it passed in. `handler` is the node:http request listener of the public
 * port (the mailer has none); `serverOptions`, if any, are the options of the node:http server it
 * runs on. `management` is the listener of the management port: health and metrics only.
 */
export interface ServiceApp {
  handler?: RequestListener;
  serverOptions?: ServerOptions;
  management: RequestListener;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Where a service listens, as its config names it: the public port (if it has one) and the management port. */
export interface ServicePorts {
  PORT?: number;
  MANAGEMENT_PORT: number;
}

/** The servers of a running service. */
export interface ServiceServers {
  /** The public port's server; absent for a service without one (the mailer). */
  server?: Server;
  /** The management port's server (/healthz, /readyz, /metrics). */
  management: Server;
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
 * Serves `app` on its ports: the management port first, so that an orchestrator's probe finds it
 * as soon as the public port takes requests.
 */
export async function listenService(app: ServiceApp, ports: ServicePorts): Promise<ServiceServers> {
  const management = await listen(app.management, ports.MANAGEMENT_PORT);
  if (!app.handler) return { management };
  if (ports.PORT === undefined) throw new Error('a service with a public handler needs PORT');
  return { management, server: await listen(app.handler, ports.PORT, app.serverOptions) };
}

export interface ServeOptions {
  logger: Logger;
  /** Closes what the caller opened for the app (its database pool and Redis), once the app is closed. */
  disconnect?: () => Promise<void>;
  /**
   * Longest wait (ms) for the requests in flight; then their connections are cut. 20 s by default:
   * inside the 30 s grace period compose and the Kubernetes manifests give identity and secrets
   * (their default too), with time left to close the app and its connections.
   */
  drainMs?: number;
  /**
   * Past this (ms) after the signal the process exits 1 with whatever is still running. The
   * orchestrator's grace period (Kubernetes terminationGracePeriodSeconds) must exceed it.
   */
  deadlineMs?: number;
}

/**
 * Starts a service and serves it on its ports until SIGTERM/SIGINT; then, gracefully, and then the
 * caller's connections, and the process exits (1 if anything failed on the way, or if `deadlineMs`
 * passed first):
 * - a service with a public port: both servers stop taking connections (a probe of /readyz is
 *   refused: unready) while the requests in flight drain, then the app closes;
 * - the mailer: the app closes first (its jobs finish) while the management server keeps answering
 *   (/readyz 503, stopping), and closes last.
 */
export async function serveUntilSignal(app: ServiceApp, ports: ServicePorts, options: ServeOptions): Promise<ServiceServers> {
  const { logger, disconnect, drainMs = 20_000, deadlineMs } = options;
  await app.start();
  const servers = await listenService(app, ports);
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
      if (servers.server) {
        await Promise.all([closeGracefully(servers.server, drainMs), closeGracefully(servers.management, 1000)]);
        await app.close();
      } else {
        await app.close();
        await closeGracefully(servers.management, 1000);
      }
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      code = 1;
    }
    await disconnect?.();
    // The spans of the last requests and jobs, still buffered when tracing is on.
    await flushTraces().catch(() => undefined);
    process.exit(code);
  });
  return servers;
}

/** Closes the database pool and the Redis connection of `infra`. */
export async function disconnect(infra: Infrastructure): Promise<void> {
  await Promise.allSettled([infra.db.destroy(), closeRedis(infra.redis)]);
}

/** What `serveUntilSignal` needs of an HTTP service's connections: its logger, and closing them last. */
export function servedOn(infra: Infrastructure): Pick<ServeOptions, 'logger' | 'disconnect'> {
  return { logger: infra.logger, disconnect: () => disconnect(infra) };
}

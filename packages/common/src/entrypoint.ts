import { createServer, type RequestListener, type Server } from 'node:http';
import { once } from 'node:events';
import { ConfigError } from './config.js';

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
export async function listen(app: RequestListener, port: number): Promise<Server> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(port);
  await once(server, 'listening');
  return server;
}

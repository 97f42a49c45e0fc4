import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type CliResult, type Logger } from '@hush/common';

export * from './servers.js';
export * from './databases.js';
export * from './ports.js';

/** A unique prefix for Redis keys, so parallel test files never see each other's counters. */
export function uniquePrefix(label: string): string {
  return `${label}:${randomBytes(6).toString('hex')}:`;
}

/** A logger that keeps every line it writes, for tests that check what a service logs. */
export function capturingLogger(name: string, level = 'debug'): { logger: Logger; logs: string[] } {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ name, level, destination }), logs };
}

/**
 * An HTTP server listening on a free port of 127.0.0.1, with no handler yet: its URL is known
 * before the app is built (the app's configuration needs it), then `server.on('request', app)`.
 */
export async function listenOnFreePort(): Promise<{ server: Server; url: string }> {
  const server = createServer();
  // As the services' own listener (entrypoint.ts): a client reusing an idle connection on a busy
  // machine must not race the server closing it (ECONNRESET) after Node's 5 s default.
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Drives a service's admin CLI as a shell would: `cliRaw` as is, `cli` with --json, parsed, throwing on failure. */
export function cliDriver(run: (argv: string[], env: NodeJS.ProcessEnv) => Promise<CliResult>, env: NodeJS.ProcessEnv) {
  const cliRaw = (...args: string[]) => run(args, env);
  const cli = async <T = Record<string, unknown>>(...args: string[]): Promise<T> => {
    const result = await cliRaw(...args, '--json');
    if (result.code !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  };
  return { cli, cliRaw };
}

export * from './browser.js';
export * from './html.js';
export * from './smtp.js';
export * from './tcp-proxy.js';
export * from './redis-monitor.js';
export * from './readiness.js';

export * from './env-example.js';
export * from './main-process.js';
export * from './key-fingerprint.js';
export * from './delivery-config.js';
export * from './template-words.js';

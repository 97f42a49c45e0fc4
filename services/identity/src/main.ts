import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { closeGracefully, ConfigError } from '@hush/common';
import { createIdentityApp } from './app.js';
import { readConfig } from './config.js';
import { connect, disconnect } from './infrastructure.js';

/** With WEB_CONCURRENCY > 1 the primary only forks workers and relays SIGTERM/SIGINT to them. */
function supervise(workers: number): void {
  for (let i = 0; i < workers; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`identity: worker ${worker.process.pid} exited (${code}); starting another\n`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
    supervise(config.WEB_CONCURRENCY);
    return;
  }
  const infra = connect(config);
  const identity = await createIdentityApp(config, infra);
  const server = createServer(identity.app);
  server.keepAliveTimeout = 65_000;
  server.listen(config.PORT);
  await once(server, 'listening');
  infra.logger.info({ port: config.PORT, issuer: config.issuer }, 'identity listening');

  // Graceful shutdown: stop accepting, let in-flight requests finish, then close pools.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    infra.logger.info({ signal }, 'shutting down');
    identity.stop();
    await closeGracefully(server, 10_000);
    await disconnect(infra);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`identity: ${err.message}\n`);
  } else {
    process.stderr.write(`identity: failed to start: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});

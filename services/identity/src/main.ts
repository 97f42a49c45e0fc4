import cluster from 'node:cluster';
import { closeGracefully, connect, disconnect, listen, onShutdownSignal, runMain } from '@hush/common';
import { createIdentityApp } from './app.js';
import { readConfig } from './config.js';

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
  const infra = connect(config, 'identity');
  const identity = await createIdentityApp(config, infra);
  const server = await listen(identity.app, config.PORT);
  infra.logger.info({ port: config.PORT, issuer: config.issuer }, 'identity listening');

  // Graceful shutdown: stop accepting, let in-flight requests finish, then close pools.
  onShutdownSignal(infra.logger, async () => {
    identity.stop();
    await closeGracefully(server, 10_000);
    await disconnect(infra);
    process.exit(0);
  });
}

runMain('identity', main);

import { createServer } from 'node:http';
import { once } from 'node:events';
import { ConfigError } from '@hush/common';
import { createIdentityApp } from './app.js';
import { readConfig } from './config.js';
import { connect, disconnect } from './infrastructure.js';

async function main(): Promise<void> {
  const config = readConfig();
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
    server.close();
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    await once(server, 'close');
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

import { createServer } from 'node:http';
import { once } from 'node:events';
import { closeGracefully, ConfigError } from '@hush/common';
import { createSecretsApp } from './app.js';
import { readConfig } from './config.js';
import { connect, disconnect } from './infrastructure.js';

async function main(): Promise<void> {
  const config = readConfig();
  const infra = connect(config);
  const secrets = createSecretsApp(config, infra);
  const server = createServer(secrets.app);
  server.keepAliveTimeout = 65_000;
  server.listen(config.PORT);
  await once(server, 'listening');
  infra.logger.info({ port: config.PORT, baseUrl: config.BASE_URL, audience: config.API_AUDIENCE }, 'secrets listening');

  // Graceful shutdown: stop accepting, let in-flight requests finish, then workers and pools.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    infra.logger.info({ signal }, 'shutting down');
    await closeGracefully(server, 10_000);
    await secrets.close();
    await disconnect(infra);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`secrets: ${err.message}\n`);
  } else {
    process.stderr.write(`secrets: failed to start: ${(err as Error).stack ?? String(err)}\n`);
  }
  process.exit(1);
});

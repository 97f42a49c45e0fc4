import { closeGracefully, connect, disconnect, listen, onShutdownSignal, runMain } from '@hush/common';
import { createSecretsApp } from './app.js';
import { readConfig } from './config.js';
import { dbOptions } from './db/knex.js';

async function main(): Promise<void> {
  const config = readConfig();
  const infra = connect(config, 'secrets', dbOptions);
  const secrets = createSecretsApp(config, infra);
  await secrets.start();
  const server = await listen(secrets.handler, config.PORT);
  infra.logger.info({ port: config.PORT, baseUrl: config.BASE_URL, audience: config.API_AUDIENCE }, 'secrets listening');

  // Graceful shutdown: stop accepting, let in-flight requests finish, then workers and pools.
  onShutdownSignal(infra.logger, async () => {
    await closeGracefully(server, 10_000);
    await secrets.close();
    await disconnect(infra);
    process.exit(0);
  });
}

runMain('secrets', main);

import { compactWhenIdle, connect, runMain, servedOn, serveUntilSignal } from '@hush/common';
import { createSecretsApp } from './app.js';
import { readConfig } from './config.js';
import { dbOptions } from './db/knex.js';

async function main(): Promise<void> {
  const config = readConfig();
  const infra = connect(config, 'secrets', dbOptions);
  await serveUntilSignal(createSecretsApp(config, infra), config, servedOn(infra));
  infra.logger.info({ port: config.PORT, managementPort: config.MANAGEMENT_PORT, baseUrl: config.BASE_URL, audience: config.API_AUDIENCE }, 'secrets listening');
  if (config.IDLE_COMPACTION) compactWhenIdle({ logger: infra.logger });
}

runMain('secrets', main);

import { compactWhenIdle, connect, runMain, servedOn, serveUntilSignal } from '@hush/common';
import { requireDeliveryKeys } from '@hush/delivery';
import { createSecretsApp } from './app.js';
import { readConfig } from './config.js';
import { dbOptions } from './db/knex.js';
import { verifyKeyFingerprints } from './key-fingerprint/key-fingerprint.js';
import { KeyFingerprintRepository } from './key-fingerprint/key-fingerprint.repository.js';

async function main(): Promise<void> {
  const config = readConfig();
  // The service sends e-mail; the admin CLI, which reads the same config, never does.
  requireDeliveryKeys(config);
  const infra = connect(config, 'secrets', dbOptions);
  // Before anything reads or writes sealed data: the database must belong to this MASTER_KEY.
  await verifyKeyFingerprints(new KeyFingerprintRepository(infra.db), { MASTER_KEY: [config.MASTER_KEY, ...config.MASTER_KEYS_PREVIOUS] }, config.DATABASE_URL);
  await serveUntilSignal(createSecretsApp(config, infra), config, servedOn(infra));
  infra.logger.info({ port: config.PORT, managementPort: config.MANAGEMENT_PORT, baseUrl: config.BASE_URL, audience: config.API_AUDIENCE }, 'secrets listening');
  if (config.IDLE_COMPACTION) compactWhenIdle({ logger: infra.logger });
}

runMain('secrets', main);

import { compactWhenIdle, connect, runMain, servedOn, serveUntilSignal } from '@hush/common';
import { requireDeliveryKeys } from '@hush/delivery';
import { readConfig } from './config.js';
import { importDeferringListFormat } from './wiring/deferred-list-format.js';

async function main(): Promise<void> {
  const config = readConfig();
  // The service sends e-mail; the admin CLI, which reads the same config, never does.
  requireDeliveryKeys(config);
  // oidc-provider first, its list formatters deferred to their first use (wiring/deferred-list-format.ts).
  await importDeferringListFormat(() => import('oidc-provider'));
  const { createIdentityApp } = await import('./app.js');
  const infra = connect(config, 'identity');
  await serveUntilSignal(createIdentityApp(config, infra), config, servedOn(infra));
  infra.logger.info({ port: config.PORT, managementPort: config.MANAGEMENT_PORT, issuer: config.issuer }, 'identity listening');
  if (config.IDLE_COMPACTION) compactWhenIdle({ logger: infra.logger });
}

runMain('identity', main);

import type { AddressInfo } from 'node:net';
import { compactWhenIdle, createLogger, runMain, serveUntilSignal } from '@hush/common/base';
import { createMailerApp } from './app.js';
import { readConfig } from './config.js';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ name: 'mailer', level: config.LOG_LEVEL });
  // On SIGTERM the worker stops taking jobs and lets the in-flight ones finish while the management
  // server answers /readyz 503; past SHUTDOWN_TIMEOUT the process exits anyway, and a job cut off
  // is retried by another worker once its lock expires.
  const { management } = await serveUntilSignal(createMailerApp(config, logger), config, {
    logger,
    deadlineMs: config.SHUTDOWN_TIMEOUT * 1000,
  });
  logger.info({ managementPort: (management.address() as AddressInfo).port }, 'mailer listening');
  if (config.IDLE_COMPACTION) compactWhenIdle({ logger });
}

runMain('mailer', main);

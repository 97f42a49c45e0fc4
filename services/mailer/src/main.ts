import type { AddressInfo } from 'node:net';
import { closeGracefully, compactWhenIdle, createLogger, listen, onShutdownSignal, runMain } from '@hush/common/base';
import { createMailerApp } from './app.js';
import { readConfig } from './config.js';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ name: 'mailer', level: config.LOG_LEVEL });
  const mailer = createMailerApp(config, logger);
  await mailer.start();
  const server = await listen(mailer.handler, config.PORT);
  logger.info({ port: (server.address() as AddressInfo).port }, 'mailer listening');
  if (config.IDLE_COMPACTION) compactWhenIdle({ logger });

  // Graceful shutdown: stop taking jobs, let the in-flight ones finish, close Redis, then HTTP
  // (which answers /readyz 503 meanwhile). The orchestrator's grace period (Kubernetes
  // terminationGracePeriodSeconds) must exceed SHUTDOWN_TIMEOUT; a job cut off by the hard exit
  // is retried by another worker once its lock expires.
  onShutdownSignal(logger, () => {
    const force = setTimeout(() => {
      logger.error({ timeout: config.SHUTDOWN_TIMEOUT }, 'shutdown timed out; exiting with jobs in flight');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT * 1000);
    force.unref();
    mailer
      .close()
      .then(() => closeGracefully(server, 1000))
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}

runMain('mailer', main);

import { closeGracefully, connect, disconnect, listen, onShutdownSignal, runMain } from '@hush/common';
import { createIdentityApp } from './app.js';
import { readConfig } from './config.js';

async function main(): Promise<void> {
  const config = readConfig();
  const infra = connect(config, 'identity');
  const identity = createIdentityApp(config, infra);
  await identity.start();
  const server = await listen(identity.handler, config.PORT);
  infra.logger.info({ port: config.PORT, issuer: config.issuer }, 'identity listening');

  // Graceful shutdown: stop accepting, let in-flight requests finish, then timers and pools.
  onShutdownSignal(infra.logger, async () => {
    await closeGracefully(server, 10_000);
    await identity.close();
    await disconnect(infra);
    process.exit(0);
  });
}

runMain('identity', main);

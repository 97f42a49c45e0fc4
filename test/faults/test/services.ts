import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, disconnect, listen, type Infrastructure } from '@hush/common';
import { capturingLogger, cliDriver, createTestDatabase, freePort, listenOnFreePort, testRedisUrl, uniquePrefix, type TcpProxy, type TestDatabase } from '@hush/testing';
import { createSecretsApp } from '../../../services/secrets/src/app.js';
import { runCli as runSecretsCli } from '../../../services/secrets/src/cli/cli.js';
import { readConfig as readSecretsConfig } from '../../../services/secrets/src/config.js';
import { dbOptions as secretsDbOptions } from '../../../services/secrets/src/db/knex.js';
import { createIdentityApp } from '../../../services/identity/src/app.js';
import { runCli as runIdentityCli } from '../../../services/identity/src/cli/cli.js';
import { readConfig as readIdentityConfig } from '../../../services/identity/src/config.js';
import { identityTemplate } from '../../../services/identity/test/harness.js';
import { secretsTemplate } from '../../../services/secrets/test/harness.js';

/**
 * A service built and connected as its main.ts does (`connect`: the same pool, timeouts and
 * outage logs), in this process so the test reads its log lines, with PostgreSQL behind `postgres`.
 */
export interface RunningService {
  url: string;
  /** The management port: /healthz, /readyz, /metrics. */
  managementUrl: string;
  env: NodeJS.ProcessEnv;
  /** The service's database, straight (not through the proxy): what a test counts rows in. */
  databaseUrl: string;
  logs: string[];
  cli<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  close(): Promise<void>;
}

interface Parts {
  database: TestDatabase;
  server: Server;
  management: Server;
  infra: Infrastructure;
  app: { close(): Promise<void> };
}

function running(parts: Parts, url: string, env: NodeJS.ProcessEnv, logs: string[], cli: RunningService['cli']): RunningService {
  return {
    url,
    managementUrl: `http://127.0.0.1:${(parts.management.address() as AddressInfo).port}`,
    env,
    databaseUrl: parts.database.url,
    logs,
    cli,
    async close() {
      await parts.app.close();
      parts.server.closeAllConnections();
      parts.server.close();
      parts.management.closeAllConnections();
      parts.management.close();
      await disconnect(parts.infra);
      await parts.database.drop();
    },
  };
}

export async function startSecretsService(postgres: TcpProxy, env: Record<string, string> = {}): Promise<RunningService> {
  const database = await createTestDatabase('faults_secrets', secretsTemplate);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fullEnv: NodeJS.ProcessEnv = {
    DATABASE_URL: postgres.via(database.url),
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: uniquePrefix('faults-secrets'),
    QUEUE_PREFIX: uniquePrefix('faults-q').slice(0, -1),
    MASTER_KEY: randomBytes(32).toString('hex'),
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    BASE_URL: url,
    PASSPHRASE_HASH_COST: '4',
    PASSPHRASE_WORKERS: '1',
    API_TOKEN_CACHE_SECONDS: '0',
    LOG_LEVEL: 'info',
    ...env,
  };
  const config = readSecretsConfig(fullEnv);
  const { cli } = cliDriver(runSecretsCli, fullEnv);
  await cli('migrate');
  const { logger, logs } = capturingLogger('secrets-faults', config.LOG_LEVEL);
  const infra = connect(config, 'secrets', secretsDbOptions, logger);
  await once(infra.redis, 'ready');
  const app = createSecretsApp(config, infra);
  await app.start();
  // Served as main.ts serves it (serveUntilSignal): same listener, same server options.
  const server = await listen(app.handler, port, app.serverOptions);
  const management = await listen(app.management, 0);
  return running({ database, server, management, infra, app }, url, fullEnv, logs, cli);
}

export async function startIdentityService(postgres: TcpProxy, env: Record<string, string> = {}): Promise<RunningService> {
  const database = await createTestDatabase('faults_identity', identityTemplate);
  const { server, url } = await listenOnFreePort();
  const fullEnv: NodeJS.ProcessEnv = {
    DATABASE_URL: postgres.via(database.url),
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: uniquePrefix('faults-identity'),
    MASTER_KEY: randomBytes(32).toString('hex'),
    AUTH_URL: url,
    PASSWORD_HASH_COST: '4',
    LOG_LEVEL: 'info',
    ...env,
  };
  const config = readIdentityConfig(fullEnv);
  const { cli } = cliDriver(runIdentityCli, fullEnv);
  await cli('migrate');
  const { logger, logs } = capturingLogger('identity-faults', config.LOG_LEVEL);
  const infra = connect(config, 'identity', {}, logger);
  await once(infra.redis, 'ready');
  const app = createIdentityApp(config, infra);
  await app.start();
  server.on('request', app.handler);
  const management = await listen(app.management, 0);
  return running({ database, server, management, infra, app }, url, fullEnv, logs, cli);
}

/** The parsed lines of a capturing logger at error level (pino's 50) or above, from index `from` on. */
export function errorLines(logs: string[], from = 0): Record<string, unknown>[] {
  return logs
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line['level'] === 'number' && line['level'] >= 50);
}

/** A client-credentials client of a fresh API (through the admin CLI, as an operator makes one). */
export async function createClient(identity: RunningService): Promise<{ id: string; secret: string; scope: string }> {
  const suffix = randomBytes(4).toString('hex');
  const scope = `read-${suffix}`;
  await identity.cli('apis', 'create', `https://api-${suffix}.example.com`, '--scopes', scope, '--ttl', '300');
  const created = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'faults',
    '--id',
    `faults-${suffix}`,
    '--grants',
    'client_credentials',
    '--scopes',
    scope,
  );
  return { id: created.client_id, secret: created.client_secret, scope };
}

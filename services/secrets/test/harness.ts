import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import request from 'supertest';
import { listen } from '@hush/common';
import { capturingLogger, cliDriver, createTestDatabase, freePort, testRedisUrl, uniquePrefix, type DatabaseTemplate, type TcpProxy, type TestDatabase } from '@hush/testing';
import { createSecretsApp, type SecretsApp } from '../src/app.js';
import { runCli } from '../src/cli/cli.js';
import { readConfig, type Config } from '../src/config.js';
import { createDb, migrateLatest, type Db } from '../src/db/knex.js';

export interface Harness {
  url: string;
  /** The management port: /healthz, /readyz, /metrics. */
  managementUrl: string;
  env: NodeJS.ProcessEnv;
  config: Config;
  secrets: SecretsApp;
  /** A second connection to the service's database, for tests that inspect what is stored. */
  db: Db;
  logs: string[];
  http: ReturnType<typeof request>;
  /** Runs the admin CLI as a shell would, with --json, and parses the output. */
  cli<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  cliRaw(...args: string[]): ReturnType<typeof runCli>;
  /** A fresh account with an API token (minted through the CLI); `auth` is the Basic header value. */
  account(plan?: string): Promise<{ custid: string; token: string; auth: string }>;
  close(): Promise<void>;
}

/**
 * One secrets app for the whole test file (jest's beforeAll/afterAll) with one account: `use`
 * receives both once the app runs.
 */
export function secretsPerFile(use: (h: Harness, auth: string) => void): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startSecrets();
    use(h, (await h.account()).auth);
  });
  afterAll(() => h?.close());
}

/** The secrets migrations applied once per run; each file's database starts as a copy of it. */
export const secretsTemplate: DatabaseTemplate = {
  name: 'secrets',
  async migrate(url) {
    const db = createDb(url, 1);
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
  },
};

/**
 * Boots the real secrets app on a random port against a fresh PostgreSQL database (a copy of the
 * migrated template, then migrated through the CLI as an operator would) and the real Redis with a unique key prefix.
 * `via` reaches PostgreSQL and Redis through proxies a test can cut.
 */
export async function startSecrets(overrides: Record<string, string> = {}, via: { postgres?: TcpProxy; redis?: TcpProxy } = {}): Promise<Harness> {
  const database: TestDatabase = await createTestDatabase('secrets', secretsTemplate);
  // A PORT given is used, so a service started first (identity) can be told this one's URL.
  const port = overrides['PORT'] !== undefined ? Number(overrides['PORT']) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: via.postgres?.via(database.url) ?? database.url,
    REDIS_URL: via.redis?.via(testRedisUrl) ?? testRedisUrl,
    REDIS_PREFIX: uniquePrefix('secrets-test'),
    QUEUE_PREFIX: uniquePrefix('q').slice(0, -1),
    // Its own revocation channel; startWithIdentity (identity.ts) gives it identity's.
    REVOCATIONS_CHANNEL: uniquePrefix('revocations-test').slice(0, -1),
    MASTER_KEY: randomBytes(32).toString('hex'),
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    BASE_URL: url,
    PASSPHRASE_HASH_COST: '4',
    PASSPHRASE_WORKERS: '2',
    // Off by default so revocations and plan changes show at once; cli.test.ts covers the cache.
    API_TOKEN_CACHE_SECONDS: '0',
    // Jest's three workers, each with a system or two, share PostgreSQL's 100 connections.
    DATABASE_POOL_MAX: '10',
    // A busy test machine is no Redis outage: commands get 5 s, unless a test cuts Redis on purpose (the services' default 1 s).
    ...(via.redis ? {} : { REDIS_TIMEOUT_MS: '5000' }),
    LOG_LEVEL: 'debug',
    ...overrides,
  };
  const config = readConfig(env);
  const { cli, cliRaw } = cliDriver(runCli, env);
  await cli('migrate');

  const { logger, logs } = capturingLogger('secrets-test', config.LOG_LEVEL);
  const appDb = createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  const db = createDb(config.DATABASE_URL, 2);
  // As the service's own connection (connect() in @hush/common): a hung Redis fails a command instead of hanging the request.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: config.REDIS_TIMEOUT_MS });
  redis.on('error', () => {}); // outages are logged by the app; some tests cut Redis on purpose
  await once(redis, 'ready');
  const secrets = createSecretsApp(config, { db: appDb, redis, logger });
  await secrets.start();
  // On a server built as the service's own (serveUntilSignal): same listener, same server options.
  const server = await listen(secrets.handler, port, secrets.serverOptions);
  const management = await listen(secrets.management, 0);

  return {
    url,
    managementUrl: `http://127.0.0.1:${(management.address() as AddressInfo).port}`,
    env,
    config,
    secrets,
    db,
    logs,
    http: request(url),
    cli,
    cliRaw,
    async account(plan?: string) {
      const custid = `user-${randomBytes(4).toString('hex')}`;
      if (plan) await cli('accounts', 'create', custid, '--plan', plan);
      const { api_token } = await cli<{ api_token: string }>('tokens', 'create', custid);
      return { custid, token: api_token, auth: basic(custid, api_token) };
    },
    async close() {
      await secrets.close();
      server.closeAllConnections();
      server.close();
      management.closeAllConnections();
      management.close();
      await Promise.all([appDb.destroy(), db.destroy()]);
      redis.disconnect();
      await database.drop();
    },
  };
}

export type Account = Awaited<ReturnType<Harness['account']>>;

/** The usual set-up of a test file: the service, and a first account (alice) with an API token. */
export async function startSecretsWithAccount(overrides: Record<string, string> = {}): Promise<{ h: Harness; alice: Account }> {
  const h = await startSecrets(overrides);
  try {
    return { h, alice: await h.account() };
  } catch (err) {
    await h.close();
    throw err;
  }
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
export const bearer = (token: string) => `Bearer ${token}`;

/** Field types of the secret object (share and generate). */
export function expectSecretObject(body: Record<string, unknown>) {
  expect(body).toEqual(
    expect.objectContaining({
      custid: expect.any(String),
      metadata_key: expect.stringMatching(/^[0-9a-z]{31}$/),
      secret_key: expect.stringMatching(/^[0-9a-z]{31}$/),
      passphrase_required: expect.any(Boolean),
    }),
  );
  for (const field of ['ttl', 'metadata_ttl', 'secret_ttl', 'created', 'updated']) expect(Number.isInteger(body[field])).toBe(true);
  expect(body['metadata_key']).not.toBe(body['secret_key']);
}

/** Counts rows of the service's tables, to prove a failed request wrote nothing. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['accounts', 'api_tokens', 'metadata', 'secrets']) {
    const row = await db(table).count<{ count: string }[]>('* as count').first();
    out[table] = Number(row?.count ?? 0);
  }
  return out;
}

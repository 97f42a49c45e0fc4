import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  capturingLogger,
  cliDriver,
  createTestDatabase,
  listenOnFreePort,
  postForm,
  TEST_RUN_VARIABLE,
  testRedisUrl,
  uniquePrefix,
  type DatabaseTemplate,
  type TcpProxy,
  type TestDatabase,
} from '@hush/testing';
import { createIdentityApp, type IdentityApp } from '../src/app.js';
import { runCli } from '../src/cli/cli.js';
import { readConfig, type Config } from '../src/config.js';
import { createDb, migrateLatest } from '../src/db/knex.js';

export interface Harness {
  url: string;
  /** The management port: /healthz, /readyz, /metrics. */
  managementUrl: string;
  issuer: string;
  env: NodeJS.ProcessEnv;
  config: Config;
  identity: IdentityApp;
  logs: string[];
  /** Runs the admin CLI as a shell would, with --json, and parses the output. */
  cli<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  cliRaw(...args: string[]): ReturnType<typeof runCli>;
  close(): Promise<void>;
}

/** Identity's migrations applied once per run; each file's database starts as a copy of it. */
export const identityTemplate: DatabaseTemplate = {
  name: 'identity',
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
 * Identity's migrations and its first signing keys (one active key per algorithm, made by the CLI's
 * `migrate` as an operator's first one does), sealed under `masterKey`. Copies of it start without
 * generating keys, which an RSA key pair makes the costliest step of a start (about 0.1 s of CPU).
 */
function identityKeyedTemplate(masterKey: string): DatabaseTemplate {
  return {
    name: 'identitykeyed',
    async migrate(url) {
      const { cli } = cliDriver(runCli, { DATABASE_URL: url, REDIS_URL: testRedisUrl, REDIS_PREFIX: uniquePrefix('identity-template'), MASTER_KEY: masterKey });
      await cli('migrate');
    },
  };
}

/** The MASTER_KEY that the keyed template of Jest run `runId` seals its signing keys under: the same in every worker. */
function templateMasterKey(runId: string): string {
  return createHash('sha256').update(`hush identity test template master key ${runId}`).digest('hex');
}

/**
 * Boots the real identity app on a random port against a fresh PostgreSQL database (a copy of the
 * migrated template, then migrated through the CLI as an operator would: the first signing key) and the real Redis, with a unique Redis key prefix.
 * In a Jest run, a file that gives no MASTER_KEY of its own gets the run's template MASTER_KEY and a
 * copy of the keyed template: its signing keys are those of every such file, made once per run. One
 * that gives its own MASTER_KEY starts from no keys, and `migrate` makes them.
 * `via` reaches PostgreSQL and Redis through proxies a test can cut.
 */
export async function startIdentity(
  overrides: Record<string, string> | ((url: string) => Record<string, string>) = {},
  via: { postgres?: TcpProxy; redis?: TcpProxy } = {},
  /** `localhost` for WebAuthn, whose relying party must be a domain, not an IP address. */
  hostname = '127.0.0.1',
): Promise<Harness> {
  const listening = await listenOnFreePort();
  const { server } = listening;
  const url = listening.url.replace('127.0.0.1', hostname);
  const given = typeof overrides === 'function' ? overrides(url) : overrides;
  const runId = process.env[TEST_RUN_VARIABLE];
  const templateKey = runId !== undefined && given['MASTER_KEY'] === undefined ? templateMasterKey(runId) : undefined;
  const database: TestDatabase = await createTestDatabase('identity', templateKey ? identityKeyedTemplate(templateKey) : identityTemplate);
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: via.postgres?.via(database.url) ?? database.url,
    REDIS_URL: via.redis?.via(testRedisUrl) ?? testRedisUrl,
    REDIS_PREFIX: uniquePrefix('identity-test'),
    // Each test file its own revocation channel (secrets/test/identity.ts gives it to secrets).
    REVOCATIONS_CHANNEL: uniquePrefix('revocations-test').slice(0, -1),
    MASTER_KEY: templateKey ?? randomBytes(32).toString('hex'),
    AUTH_URL: url,
    PASSWORD_HASH_COST: '4',
    // A busy test machine is no Redis outage: commands get 5 s, unless a test cuts Redis on purpose (the services' default 1 s).
    ...(via.redis ? {} : { REDIS_TIMEOUT_MS: '5000' }),
    LOG_LEVEL: 'debug',
    ...given,
  };
  const config = readConfig(env);
  const { cli, cliRaw } = cliDriver(runCli, env);
  await cli('migrate');

  const { logger, logs } = capturingLogger('identity-test');
  const db = createDb(config.DATABASE_URL, 10);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  const identity = createIdentityApp(config, { db, redis, logger });
  await identity.start();
  server.on('request', identity.handler);
  const management = await listenOnFreePort();
  management.server.on('request', identity.management);

  return {
    url,
    managementUrl: management.url,
    issuer: config.issuer,
    env,
    config,
    identity,
    logs,
    cliRaw,
    cli,
    async close() {
      await identity.close();
      server.closeAllConnections();
      server.close();
      management.server.closeAllConnections();
      management.server.close();
      await db.destroy();
      redis.disconnect();
      await database.drop();
    },
  };
}

/**
 * One identity app for the whole test file (jest's beforeAll/afterAll): `use` receives it once it
 * runs, with its token endpoint.
 */
export function identityPerFile(use: (h: Harness, tokenUrl: string) => void, overrides: Record<string, string> = {}): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startIdentity(overrides);
    use(h, `${h.issuer}/protocol/openid-connect/token`);
  });
  afterAll(() => h?.close());
}

/**
 * Runs `bootstrap` as an operator would (the web app's client for `secretsAudience`, the admin
 * client hush-admin) and returns an access token of hush-admin for the admin API: its secret as
 * bootstrap printed it, or ADMIN_CLIENT_SECRET when the environment gave one.
 */
export async function bootstrapAdmin(h: Harness, secretsAudience = 'https://secrets.example.com/api/v1'): Promise<string> {
  const boot = await h.cli<{ admin_client: { client_secret?: string } }>('bootstrap', '--secrets-audience', secretsAudience);
  const secret = boot.admin_client.client_secret ?? h.env['ADMIN_CLIENT_SECRET'];
  if (secret === undefined) throw new Error('bootstrap printed no admin secret and none was given');
  const res = await postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: secret });
  if (res.status !== 200) throw new Error(`no admin token: ${res.status} ${JSON.stringify(res.body)}`);
  return String(res.body['access_token']);
}

/** An API plus a confidential client allowed some of its scopes: the usual test set-up. */
export async function createApiAndClient(
  h: Harness,
  opts: { grants?: string; scopes?: string; org?: string; redirectUri?: string; extraArgs?: string[]; firstParty?: boolean } = {},
) {
  const suffix = randomBytes(4).toString('hex');
  const identifier = `https://api-${suffix}.example.com`;
  await h.cli('apis', 'create', identifier, '--scopes', `read-${suffix},write-${suffix}`, '--ttl', '300');
  const args = ['clients', 'create', '--name', `client ${suffix}`, '--id', `client-${suffix}`, '--grants', opts.grants ?? 'client_credentials,refresh_token'];
  args.push('--scopes', opts.scopes ?? `read-${suffix},write-${suffix}`);
  if (opts.org) args.push('--org', opts.org);
  if (opts.redirectUri) args.push('--redirect-uri', opts.redirectUri);
  // A third-party client (people consent, once) unless `firstParty`.
  if (!opts.firstParty) args.push('--consent-required');
  args.push(...(opts.extraArgs ?? []));
  const client = await h.cli<{ client_id: string; client_secret: string }>(...args);
  return { api: identifier, read: `read-${suffix}`, write: `write-${suffix}`, clientId: client.client_id, clientSecret: client.client_secret };
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A refresh-token grant at `tokenUrl` by a client authenticating with client_secret_post. */
export const refreshGrant = (tokenUrl: string, client: { clientId: string; clientSecret: string }, refreshToken: string) =>
  postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret });

export type ApiClient = Awaited<ReturnType<typeof createApiAndClient>>;

/** One identity app and one API client (createApiAndClient's defaults) for the whole test file. */
export function identityAndClientPerFile(use: (h: Harness, c: ApiClient) => void): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startIdentity();
    use(h, await createApiAndClient(h));
  });
  afterAll(() => h?.close());
}

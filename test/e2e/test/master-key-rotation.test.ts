import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { Redis } from 'ioredis';
import request from 'supertest';
import {
  capturingLogger,
  cliDriver,
  createTestDatabase,
  eventually,
  freePort,
  postForm,
  startSmtp,
  testRedisUrl,
  uniquePrefix,
  type TestDatabase,
  type TestSmtp,
} from '@hush/testing';
import { createIdentityApp } from '../../../services/identity/src/app.js';
import { runCli as runIdentityCli } from '../../../services/identity/src/cli/cli.js';
import { readConfig as readIdentityConfig } from '../../../services/identity/src/config.js';
import { createDb as createIdentityDb } from '../../../services/identity/src/db/knex.js';
import { confirmEnrolment, CredentialsRepository, secondFactorDeps, startEnrolment, verifySecondFactor } from '../../../services/identity/src/login/index.js';
import { codeAt, TOTP_PERIOD } from '../../../services/identity/src/login/totp.js';
import { createSecretsApp } from '../../../services/secrets/src/app.js';
import { runCli as runSecretsCli } from '../../../services/secrets/src/cli/cli.js';
import { readConfig as readSecretsConfig } from '../../../services/secrets/src/config.js';
import { createDb as createSecretsDb } from '../../../services/secrets/src/db/knex.js';
import { verifyKeyFingerprints } from '../../../services/secrets/src/key-fingerprint/key-fingerprint.js';
import { KeyFingerprintRepository } from '../../../services/secrets/src/key-fingerprint/key-fingerprint.repository.js';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';

/**
 * MASTER_KEY (both services) and MAIL_SEALING_KEY rotated on a running system, as docs/deploy.md
 * tells an operator to: (1) the new key added as a previous key, (2) made the key, the old one
 * kept as previous, (3) `rewrap`, (4) the old key removed. Between the steps instances of two
 * generations run side by side on one database (a rolling update), and shares and reads go on
 * through both. Every secret shared before, during and after opens exactly once; every client
 * secret authenticates and reads back; every TOTP credential verifies; every session (a refresh
 * token) refreshed during the rotation goes on after it; a recipient's e-mail
 * sealed under the old MAIL_SEALING_KEY is still delivered; and with the old keys gone, all of it
 * still works, while a process given only an old key refuses to start.
 */

const hex = () => randomBytes(32).toString('hex');
const keys = { identityOld: hex(), identityNew: hex(), secretsOld: hex(), secretsNew: hex(), mailOld: hex(), mailNew: hex() };

interface Running {
  url: string;
  http: ReturnType<typeof request>;
  close(): Promise<void>;
}

type Logger = ReturnType<typeof capturingLogger>['logger'];

async function listen(handler: RequestListener, port: number, options: ServerOptions = {}): Promise<Server> {
  const server = createServer(options, handler);
  server.listen(port);
  await once(server, 'listening');
  return server;
}

/** The secrets service with `env` over the shared settings, as `main` starts it (key fingerprints first). */
async function runSecrets(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv, logger: Logger): Promise<Running> {
  const config = readSecretsConfig({ ...base, ...env });
  const db = createSecretsDb(config.DATABASE_URL, 5);
  try {
    await verifyKeyFingerprints(new KeyFingerprintRepository(db), { MASTER_KEY: [config.MASTER_KEY, ...config.MASTER_KEYS_PREVIOUS] }, config.DATABASE_URL);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  await once(redis, 'ready');
  const app = createSecretsApp(config, { db, redis, logger });
  await app.start();
  const port = await freePort();
  const server = await listen(app.handler, port, app.serverOptions);
  const url = `http://127.0.0.1:${port}`;
  return { url, http: request(url), close: () => stop(server, app.close(), db.destroy(), redis) };
}

/**
 * Identity with `env` over the shared settings, on its own port: every instance has the one public
 * AUTH_URL (and so one issuer), as replicas behind an Ingress have; this process calls the port.
 */
async function runIdentity(base: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv, logger: Logger): Promise<Running & { config: ReturnType<typeof readIdentityConfig> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = readIdentityConfig({ ...base, ...env, INTERNAL_URL: url });
  const db = createIdentityDb(config.DATABASE_URL, 5);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  const app = createIdentityApp(config, { db, redis, logger });
  try {
    await app.start();
  } catch (err) {
    await app.close();
    await db.destroy();
    redis.disconnect();
    throw err;
  }
  const server = await listen(app.handler, port);
  return { url, config, http: request(url), close: () => stop(server, app.close(), db.destroy(), redis) };
}

async function stop(server: Server, ...rest: [Promise<void>, Promise<void>, Redis]): Promise<void> {
  server.closeAllConnections();
  server.close();
  await rest[0];
  await rest[1];
  rest[2].disconnect();
}

describe('rotating MASTER_KEY and MAIL_SEALING_KEY on a running system', () => {
  let identityDb: TestDatabase;
  let secretsDb: TestDatabase;
  let smtp: TestSmtp;
  let identityBase: NodeJS.ProcessEnv;
  let secretsBase: NodeJS.ProcessEnv;
  const running: { close(): Promise<void> }[] = [];
  const { logger } = capturingLogger('rotation-e2e');
  let prefix: string;

  // Each attempt on databases, queues and keys of its own, so that a retry starts from the beginning.
  beforeEach(async () => {
    prefix = `e2e-${randomBytes(5).toString('hex')}`;
    [identityDb, secretsDb, smtp] = await Promise.all([createTestDatabase('identity'), createTestDatabase('secrets'), startSmtp({})]);
    identityBase = {
      DATABASE_URL: identityDb.url,
      REDIS_URL: testRedisUrl,
      REDIS_PREFIX: uniquePrefix('identity-rotation'),
      REVOCATIONS_CHANNEL: uniquePrefix('revocations-rotation').slice(0, -1),
      PASSWORD_HASH_COST: '4',
      AUTH_URL: 'https://auth.rotation.example',
      LOG_LEVEL: 'silent',
    };
    secretsBase = {
      DATABASE_URL: secretsDb.url,
      REDIS_URL: testRedisUrl,
      REDIS_PREFIX: uniquePrefix('secrets-rotation'),
      REVOCATIONS_CHANNEL: uniquePrefix('revocations-rotation').slice(0, -1),
      QUEUE_PREFIX: prefix,
      RELAY_INTERVAL_MS: '100',
      SMTP_URL: smtp.url,
      BASE_URL: 'http://127.0.0.1:1',
      PASSPHRASE_HASH_COST: '4',
      PASSPHRASE_WORKERS: '1',
      RATE_LIMIT_MAX: '0',
      API_TOKEN_CACHE_SECONDS: '0',
      LOG_LEVEL: 'silent',
    };
  });
  afterEach(async () => {
    for (const r of running.splice(0).reverse()) await r.close();
    await smtp.close();
    await Promise.all([identityDb.drop(), secretsDb.drop()]);
  });

  it('opens every secret once, verifies every client secret and TOTP, keeps every session refreshed during it, delivers every e-mail, before, during and after, and then without the old keys', async () => {
    // The producers seal under MAIL_SEALING_KEY alone; only the mailer keeps the previous ones.
    const secretsEnv = (master: string, previous: string[], mail: string) => ({ MASTER_KEY: master, MASTER_KEYS_PREVIOUS: previous.join(','), MAIL_SEALING_KEY: mail });
    const identityEnv = (master: string, previous: string[]) => ({ MASTER_KEY: master, MASTER_KEYS_PREVIOUS: previous.join(',') });
    const secretsCli = (env: NodeJS.ProcessEnv) => cliDriver(runSecretsCli, { ...secretsBase, ...env });
    const identityCli = (env: NodeJS.ProcessEnv) => cliDriver(runIdentityCli, { ...identityBase, ...env });
    const start = async <T extends { close(): Promise<void> }>(r: Promise<T>): Promise<T> => {
      const started = await r;
      running.push(started);
      return started;
    };
    const retire = async (r: { close(): Promise<void> }) => {
      running.splice(running.indexOf(r), 1);
      await r.close();
    };

    // Before: one generation, the old keys only.
    const oldSecrets = secretsEnv(keys.secretsOld, [], keys.mailOld);
    const oldIdentity = identityEnv(keys.identityOld, []);
    await secretsCli(oldSecrets).cli('migrate');
    await identityCli(oldIdentity).cli('migrate');
    const { api_token } = await secretsCli(oldSecrets).cli<{ api_token: string }>('tokens', 'create', 'rotator');
    const auth = `Basic ${Buffer.from(`rotator:${api_token}`).toString('base64')}`;
    const serveMailerWith = (sealing: NodeJS.ProcessEnv) =>
      start(serveMailer(readMailerConfig({ REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, SMTP_URL: smtp.url, MANAGEMENT_PORT: '0', LOG_LEVEL: 'silent', ...sealing }), logger));
    let mailer: Mailer = await serveMailerWith({ MAIL_SEALING_KEY: keys.mailOld });
    const secretsA = await start(runSecrets(secretsBase, oldSecrets, logger));
    const identityA = await start(runIdentity(identityBase, oldIdentity, logger));

    const shared: { key: string; value: string; passphrase?: string; underOldKey: boolean }[] = [];
    /** The instances that seal under the old MASTER_KEY. */
    const sealingUnderOldKey = new Set<Running>([secretsA]);
    const addresses: string[] = [];
    let n = 0;
    const share = async (via: Running, extra: Record<string, string> = {}) => {
      const value = `secret ${n++} ${randomBytes(4).toString('hex')}`;
      const res = await via.http
        .post('/api/v1/share')
        .set('Authorization', auth)
        .type('form')
        .send({ secret: value, ...extra });
      expect(res.status).toBe(200);
      shared.push({
        key: (res.body as { secret_key: string }).secret_key,
        value,
        ...(extra['passphrase'] ? { passphrase: extra['passphrase'] } : {}),
        underOldKey: sealingUnderOldKey.has(via),
      });
      if (extra['recipient']) addresses.push(extra['recipient']);
    };
    const shareSome = async (via: Running) => {
      await share(via);
      await share(via, { passphrase: 'correct horse' });
      await share(via, { recipient: `rotation-${n}-${prefix}@example.com` });
    };
    /** Reads the oldest quarter of what is not yet read through `via`: each opens once, and a second read finds nothing. */
    const readSome = async (via: Running, all = false) => {
      const unread = shared.splice(0, all ? shared.length : Math.ceil(shared.length / 4));
      for (const s of unread) {
        const res = await via.http
          .post(`/api/v1/secret/${s.key}`)
          .type('form')
          .send(s.passphrase ? { passphrase: s.passphrase } : {});
        expect({ status: res.status, value: (res.body as { value?: string }).value }).toEqual({ status: 200, value: s.value });
        expect(
          (
            await via.http
              .post(`/api/v1/secret/${s.key}`)
              .type('form')
              .send(s.passphrase ? { passphrase: s.passphrase } : {})
          ).status,
        ).toBe(404);
      }
    };

    const clients: { id: string; secret: string }[] = [];
    const addClient = async (env: NodeJS.ProcessEnv) => {
      const c = await identityCli(env).cli<{ client_id: string; client_secret: string }>(
        'clients',
        'create',
        '--name',
        `c${clients.length}`,
        '--grants',
        'client_credentials',
        '--scopes',
        'openid',
      );
      clients.push({ id: c.client_id, secret: c.client_secret });
    };
    const checkClients = async (via: Running & { config: { issuer: string } }, env: NodeJS.ProcessEnv) => {
      for (const c of clients) {
        const res = await postForm(`${via.url}/auth/realms/public/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret });
        expect({ client: c.id, status: res.status }).toEqual({ client: c.id, status: 200 });
        expect(await identityCli(env).cli<{ client_secret: string }>('clients', 'secret', c.id)).toEqual({ client_id: c.id, client_secret: c.secret });
      }
    };

    /**
     * Sessions: refresh tokens a client gets with client_credentials for an API (Keycloak's "refresh
     * tokens for client credentials"), one client each (a client's next one replaces its last).
     */
    const sessions: { client: { id: string; secret: string }; refreshToken: string }[] = [];
    const api = 'https://rotation.example.com';
    const tokenUrl = (via: Running) => `${via.url}/auth/realms/public/protocol/openid-connect/token`;
    const startSession = async (via: Running, env: NodeJS.ProcessEnv) => {
      const c = await identityCli(env).cli<{ client_id: string; client_secret: string }>(
        'clients',
        'create',
        '--name',
        `s${sessions.length}`,
        '--grants',
        'client_credentials,refresh_token',
        '--scopes',
        'rotation:read',
      );
      const db = createIdentityDb(identityDb.url, 1);
      await db('clients').where({ client_id: c.client_id }).update({ client_credentials_refresh: true });
      await db.destroy();
      const form = { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret, scope: 'rotation:read', resource: api };
      const refreshToken = await eventually(async () => {
        const res = await postForm(tokenUrl(via), form);
        return typeof res.body['refresh_token'] === 'string' ? res.body['refresh_token'] : undefined;
      }, 10_000);
      sessions.push({ client: { id: c.client_id, secret: c.client_secret }, refreshToken });
    };
    /** Refreshes every session through `via`: each goes on, with the refresh token it is given. */
    const refreshSessions = async (via: Running) => {
      for (const [i, session] of sessions.entries()) {
        const form = { grant_type: 'refresh_token', refresh_token: session.refreshToken, client_id: session.client.id, client_secret: session.client.secret };
        const res = await postForm(tokenUrl(via), form);
        expect({ session: i, status: res.status, body: res.status === 200 ? {} : res.body }).toEqual({ session: i, status: 200, body: {} });
        if (typeof res.body['refresh_token'] === 'string') session.refreshToken = res.body['refresh_token'];
      }
    };

    const totps: { userId: string; secret: string }[] = [];
    let clock = Date.now();
    /** The TOTP use-cases over identity's own context and deps, as `env` configures them. */
    const secondFactor = (env: NodeJS.ProcessEnv) => {
      const config = readIdentityConfig({ ...identityBase, ...env });
      const db = createIdentityDb(config.DATABASE_URL, 2);
      const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
      const deps = secondFactorDeps(config, { credentials: new CredentialsRepository(db) }, redis).secondFactor;
      return { deps, close: () => db.destroy() };
    };
    const enrol = async (env: NodeJS.ProcessEnv) => {
      const { deps, close } = secondFactor(env);
      const user = await identityCli(env).cli<{ id: string }>('users', 'create', `totp${totps.length}-${prefix}`, '--password', 'a long enough password');
      const enrolment = await startEnrolment(deps, user.id, 'someone');
      const secret = enrolment.secretText.replace(/ /g, '');
      clock += TOTP_PERIOD * 1000;
      expect(await confirmEnrolment(deps, { userId: user.id, binding: user.id, pending: enrolment.pending, code: codeAt(secret, clock) }, clock)).toHaveLength(10);
      totps.push({ userId: user.id, secret });
      await close();
    };
    const checkTotps = async (env: NodeJS.ProcessEnv) => {
      const { deps, close } = secondFactor(env);
      clock += TOTP_PERIOD * 1000;
      for (const t of totps)
        expect({ user: t.userId, passed: await verifySecondFactor(deps, t.userId, codeAt(t.secret, clock), clock) }).toEqual({ user: t.userId, passed: 'otp' });
      await close();
    };

    await shareSome(secretsA);
    await identityCli(oldIdentity).cli('apis', 'create', api, '--scopes', 'rotation:read');
    await startSession(identityA, oldIdentity);
    await startSession(identityA, oldIdentity);
    await addClient(oldIdentity);
    await enrol(oldIdentity);
    await checkClients(identityA, oldIdentity);
    await checkTotps(oldIdentity);

    // Step 1: the new keys readable everywhere, still sealing under the old ones. The mailer learns the new sealing key first.
    const step1Secrets = secretsEnv(keys.secretsOld, [keys.secretsNew], keys.mailOld);
    const step1Identity = identityEnv(keys.identityOld, [keys.identityNew]);
    await retire(mailer);
    mailer = await serveMailerWith({ MAIL_SEALING_KEY: keys.mailNew, MAIL_SEALING_KEYS_PREVIOUS: keys.mailOld });
    const secretsB = await start(runSecrets(secretsBase, step1Secrets, logger));
    sealingUnderOldKey.add(secretsB);
    await shareSome(secretsB);
    await readSome(secretsA);
    await retire(secretsA);
    const identityB = await start(runIdentity(identityBase, step1Identity, logger));
    await retire(identityA);

    // Step 2: the new keys seal, the old ones only open; the two generations side by side.
    const step2Secrets = secretsEnv(keys.secretsNew, [keys.secretsOld], keys.mailNew);
    const step2Identity = identityEnv(keys.identityNew, [keys.identityOld]);
    const secretsC = await start(runSecrets(secretsBase, step2Secrets, logger));
    const identityC = await start(runIdentity(identityBase, step2Identity, logger));
    // Enough under the old key that the reads during the rewrap (the oldest quarter) open some and leave some for it to move.
    for (let i = 0; i < 3; i++) await shareSome(secretsB);
    await shareSome(secretsC);
    await addClient(step2Identity);
    await enrol(step2Identity);
    await readSome(secretsC);
    await readSome(secretsB);
    await checkClients(identityB, step1Identity);
    await checkClients(identityC, step2Identity);
    await startSession(identityB, step1Identity);
    await refreshSessions(identityC);
    await checkTotps(step1Identity);
    await retire(secretsB);
    await retire(identityB);

    // Step 3: the rewrap, while shares and reads go on (the reads: a quarter of what is unread once shareSome's three are in).
    const readDuringRewrap = Math.ceil((shared.length + 3) / 4);
    expect(shared.slice(0, readDuringRewrap).every((s) => s.underOldKey)).toBe(true);
    expect(shared.slice(readDuringRewrap).some((s) => s.underOldKey)).toBe(true);
    const rewraps = Promise.all([
      secretsCli(step2Secrets).cli<{ left: number; previousKeysRemovable: boolean }>('rewrap', '--batch-size', '2'),
      identityCli(step2Identity).cli<{ left: number; previousKeysRemovable: boolean }>('rewrap', '--batch-size', '2'),
    ]);
    await shareSome(secretsC);
    await readSome(secretsC);
    const [secretsRewrap, identityRewrap] = await rewraps;
    const moved = (report: unknown) => Object.fromEntries((report as { columns: { name: string; rewrapped: number }[] }).columns.map((c) => [c.name, c.rewrapped]));
    // What was sealed under the old key and still stored: values, their recipients' outbox rows, client secrets, TOTP keys, signing keys.
    expect(moved(secretsRewrap)).toEqual(expect.objectContaining({ 'secrets.ciphertext': expect.any(Number), 'metadata.secret_key_sealed': expect.any(Number) }));
    expect(moved(secretsRewrap)['secrets.ciphertext']).toBeGreaterThan(0);
    expect(moved(secretsRewrap)['metadata.secret_key_sealed']).toBeGreaterThan(0);
    expect(moved(identityRewrap)).toEqual(
      expect.objectContaining({ 'signing_keys.private_jwk_sealed': 2, 'clients.secret_sealed': expect.any(Number), 'user_credentials.secret_sealed': 1 }),
    );
    expect(moved(identityRewrap)['clients.secret_sealed']).toBeGreaterThan(0);
    expect(secretsRewrap).toEqual(expect.objectContaining({ left: 0, previousKeysRemovable: true }));
    expect(identityRewrap).toEqual(expect.objectContaining({ left: 0, previousKeysRemovable: true }));
    // Run again, it finds nothing left to move.
    const again = await secretsCli(step2Secrets).cli<{ columns: { rewrapped: number }[] }>('rewrap');
    expect(again.columns.reduce((sum, c) => sum + c.rewrapped, 0)).toBe(0);

    // Step 4: the old keys removed; a process given only an old key refuses to start.
    const newSecrets = secretsEnv(keys.secretsNew, [], keys.mailNew);
    const newIdentity = identityEnv(keys.identityNew, []);
    await expect(runSecrets(secretsBase, oldSecrets, logger)).rejects.toThrow(/was set up with another MASTER_KEY/);
    await expect(runIdentity(identityBase, oldIdentity, logger)).rejects.toThrow(/MASTER_KEY cannot decrypt signing key/);
    const secretsD = await start(runSecrets(secretsBase, newSecrets, logger));
    const identityD = await start(runIdentity(identityBase, newIdentity, logger));
    await retire(secretsC);
    await retire(identityC);
    await shareSome(secretsD);
    await addClient(newIdentity);
    await enrol(newIdentity);
    await readSome(secretsD, true);
    await checkClients(identityD, newIdentity);
    await checkTotps(newIdentity);
    await startSession(identityD, newIdentity);
    await refreshSessions(identityD);

    // Every recipient's e-mail arrived, those sealed under the old MAIL_SEALING_KEY too.
    for (const to of addresses) expect(await smtp.waitFor(to, 1, 30_000)).toHaveLength(1);
    await retire(mailer);
  });
});

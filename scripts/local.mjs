#!/usr/bin/env node
// Runs Hush locally with the same entry points and environment variables as the containers.
// On first use it writes `.env` (git-ignored) with random master keys and local URLs, and creates
// the databases on the local PostgreSQL: hush_identity_<tag> and hush_secrets_<tag>, <tag> a hash
// of this checkout's path, so two clones on one machine never share them (scripts/local-databases.mjs).
//
//   node scripts/local.mjs [--fresh]       everything: identity :8080, secrets :3000, mailer, and a
//                                          mail catcher (:1025/:8025) unless SMTP_URL is set;
//                                          demo credentials on first start; prints a curl session.
//                                          Health and metrics on the management ports :9000, :9001
//                                          and :9002. A service that dies is restarted with backoff
//                                          (scripts/supervise.mjs); one that keeps dying stops all.
//                                          --fresh first deletes this checkout's local databases
//                                          (and demo user), e.g. after its .env was lost
//   node scripts/local.mjs identity        migrate + bootstrap, then identity alone
//   node scripts/local.mjs secrets         migrate, then secrets alone
//   node scripts/local.mjs identity-cli …  the identity admin CLI (same for secrets-cli)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'node:net';
import pg from 'pg';
import { startFlags } from './start-flags.mjs';
import { supervise } from './supervise.mjs';
import { defaultDatabaseUrls, dropLocalDatabase, ensureLocalDatabase, KeyMismatchError, mismatchAdvice } from './local-databases.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const envFile = join(root, '.env');
const demoFile = join(root, '.hush-demo.json');

const DEFAULTS = {
  IDENTITY_MASTER_KEY: () => randomBytes(32).toString('hex'),
  SECRETS_MASTER_KEY: () => randomBytes(32).toString('hex'),
  // The secrets web app's client secret at identity (bootstrap registers it with this value).
  SECRETS_WEB_CLIENT_SECRET: () => randomBytes(32).toString('hex'),
  // The first administrator's client secret at identity (bootstrap gives hush-admin this value).
  ADMIN_CLIENT_SECRET: () => randomBytes(32).toString('hex'),
  // identity's own client of the secrets API (bootstrap registers hush-handover with it): credential
  // handover from the admin API and console.
  HANDOVER_CLIENT_SECRET: () => randomBytes(32).toString('hex'),
  // Seals what an e-mail job carries (the secret link, the recipient) while it waits in Redis;
  // the secrets service and the mailer share it, and no one else holds it.
  MAIL_SEALING_KEY: () => randomBytes(32).toString('hex'),
  // This checkout's own databases (a second clone gets others; its keys could not read these).
  IDENTITY_DATABASE_URL: () => defaultDatabaseUrls(root).identity,
  SECRETS_DATABASE_URL: () => defaultDatabaseUrls(root).secrets,
  REDIS_URL: () => 'redis://127.0.0.1:6379',
  AUTH_URL: () => 'http://localhost:8080',
  BASE_URL: () => 'http://localhost:3000',
};

function loadEnv() {
  if (!existsSync(envFile)) writeFileSync(envFile, '# Local development settings, written by scripts/local.mjs. Never commit this file.\n', { mode: 0o600 });
  const parse = () => {
    const env = {};
    for (const line of readFileSync(envFile, 'utf8').split('\n')) {
      const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
      if (m) env[m[1]] = m[2];
    }
    return env;
  };
  const fileEnv = parse();
  const missing = Object.keys(DEFAULTS).filter((k) => !fileEnv[k]);
  if (missing.length) {
    appendFileSync(envFile, missing.map((k) => `${k}=${DEFAULTS[k]()}\n`).join(''));
    log('local', `wrote ${missing.join(', ')} to ${envFile}`);
  }
  return { ...parse(), ...process.env }; // real environment variables win over .env
}

function log(name, line) {
  process.stdout.write(`${`[${name}]`.padEnd(11)} ${line}\n`);
}

/** Does a Redis answer PING at this URL? */
function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(String(d).startsWith('+PONG') || String(d).startsWith('-NOAUTH')));
  });
}

/** Can we reach the PostgreSQL server of this URL? */
async function reachable(url) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * No PostgreSQL here: an embedded one (PGlite, data in .data/pglite/<name>) behind a PostgreSQL
 * wire-protocol socket, so the services use the very same pg/knex code path. PGlite is a single
 * session: one connection at a time, so the services run with DATABASE_POOL_MAX=1 (and identity
 * without its LISTEN connection, CLIENT_CACHE=false) and every
 * admin command runs before they start.
 */
async function embeddedPostgres(name, port) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dir = join(root, '.data', 'pglite', name);
  mkdirSync(dir, { recursive: true });
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  // pg_trgm: identity's search indexes (its migration creates the extension).
  const db = await PGlite.create(dir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  await server.start();
  closers.push(async () => {
    await server.stop();
    await db.close();
  });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

const isEmbedded = (url) => /:(5543[0-9])\//.test(url);

/** Creates a service's database when missing; refuses one holding another master key's data. */
async function ensureDatabase(name, e) {
  if (isEmbedded(e.DATABASE_URL)) return; // embedded: its one database exists (in this checkout's .data/)
  await ensureLocalDatabase(e.DATABASE_URL, e.MASTER_KEY, { keyName: `${name.toUpperCase()}_MASTER_KEY`, envFile });
}

/** --fresh: this checkout's databases and demo credentials go; its .env (keys, settings) stays. */
async function fresh(env) {
  for (const url of [env.IDENTITY_DATABASE_URL, env.SECRETS_DATABASE_URL]) {
    if (isEmbedded(url) || !(await reachable(url))) continue;
    if (await dropLocalDatabase(url)) log('local', `deleted the database ${new URL(url).pathname.slice(1)}`);
  }
  rmSync(join(root, '.data', 'pglite'), { recursive: true, force: true });
  rmSync(demoFile, { force: true });
}

/** A one-shot setup command (bootstrap, migrate): its output is shown only when it fails. */
async function setup(name, entry, args, e) {
  const r = await run(name, entry, args, e, { collect: true });
  if (r.code === 0) return;
  process.stderr.write(r.out);
  if (/MASTER_KEY cannot decrypt/.test(r.out)) {
    throw new KeyMismatchError(`The database of ${name} does not fit this checkout's keys.\n${mismatchAdvice({ keyName: `${name.toUpperCase()}_MASTER_KEY`, envFile })}`);
  }
  throw new Error(`${name} ${args.join(' ')} failed (its output is above)`);
}

const children = new Set();
/** capture: resolve with stdout (stderr dropped); collect: with stdout and stderr; else log each line. */
function run(name, entry, args, env, { capture = false, collect = false } = {}) {
  return new Promise((resolve) => {
    // A service (not a CLI) runs with the Node flags of its start script, as in its container.
    const service = /^services\/(\w+)\/dist\/src\/main\.js$/.exec(entry)?.[1];
    const flags = service ? startFlags(root, service) : [];
    const child = spawn(process.execPath, [...flags, join(root, entry), ...args], { env, stdio: capture ? ['ignore', 'pipe', 'ignore'] : ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    for (const stream of capture ? [child.stdout] : [child.stdout, child.stderr]) {
      let buffer = '';
      stream.on('data', (chunk) => {
        if (capture || collect) {
          out += chunk;
          return;
        }
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop();
        for (const line of lines) {
          if (/MASTER_KEY cannot decrypt/.test(line)) keyMismatch.add(name);
          log(name, line);
        }
      });
    }
    child.on('exit', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, out });
      // Stopping: once the services have drained, the mail catcher and embedded database go too.
      if (stopping && children.size === 0) void closeAll().then(() => process.exit(exitCode));
    });
  });
}

/** Services that said their MASTER_KEY does not fit their database (a checkout's .env replaced). */
const keyMismatch = new Set();
let stopping = false;
/** The launcher's exit status once everything stopped: 1 when it stopped because a service kept dying. */
let exitCode = 0;
/** What must close cleanly before the launcher exits (the embedded databases flush to disk). */
const closers = [];
const closeAll = () => Promise.allSettled(closers.splice(0).map((close) => close()));
/** Stops every service (they drain), then what they use, and exits with `code`. */
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(exitCode), 15_000).unref();
  if (children.size === 0) void closeAll().then(() => process.exit(exitCode));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));

const ENTRY = {
  identity: 'services/identity/dist/src/main.js',
  identityCli: 'services/identity/dist/src/cli/main.js',
  secrets: 'services/secrets/dist/src/main.js',
  secretsCli: 'services/secrets/dist/src/cli/main.js',
  mailer: 'services/mailer/dist/src/main.js',
};

function environments(env) {
  return {
    identity: {
      ...env,
      MASTER_KEY: env.IDENTITY_MASTER_KEY,
      DATABASE_URL: env.IDENTITY_DATABASE_URL,
      PORT: env.IDENTITY_PORT ?? '8080',
      MANAGEMENT_PORT: env.IDENTITY_MANAGEMENT_PORT ?? '9000',
      SECRETS_API_AUDIENCE: `${env.BASE_URL}/api/v1`,
      SECRETS_BASE_URL: env.BASE_URL,
      // As in the containers: identity reaches itself and the secrets service on this machine's
      // ports, whatever public origins AUTH_URL and BASE_URL name.
      INTERNAL_URL: env.INTERNAL_URL ?? `http://127.0.0.1:${env.IDENTITY_PORT ?? '8080'}`,
      SECRETS_URL: env.SECRETS_URL ?? `http://127.0.0.1:${env.SECRETS_PORT ?? '3000'}`,
    },
    secrets: {
      ...env,
      MASTER_KEY: env.SECRETS_MASTER_KEY,
      DATABASE_URL: env.SECRETS_DATABASE_URL,
      PORT: env.SECRETS_PORT ?? '3000',
      MANAGEMENT_PORT: env.SECRETS_MANAGEMENT_PORT ?? '9001',
      IDENTITY_ISSUER: `${env.AUTH_URL}/auth/realms/public`,
      WEB_CLIENT_SECRET: env.SECRETS_WEB_CLIENT_SECRET,
    },
    mailer: { ...env, MANAGEMENT_PORT: env.MAILER_MANAGEMENT_PORT ?? '9002', SMTP_URL: env.SMTP_URL ?? 'smtp://127.0.0.1:1025' },
  };
}

async function cli(name, entry, args, env) {
  const r = await run(name, entry, [...args, '--json'], env, { capture: true });
  if (r.code !== 0) throw new Error(`${name} ${args.join(' ')} failed`);
  return JSON.parse(r.out);
}

async function waitHealthy(url) {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy`);
}

/** Demo organization, user, client and API token: made once, kept in .hush-demo.json (git-ignored). */
async function demo(envs) {
  // The admin client's credentials follow .env (bootstrap sets them), also in an older demo file.
  const admin = { admin_client_id: 'hush-admin', admin_client_secret: envs.identity.ADMIN_CLIENT_SECRET };
  if (existsSync(demoFile)) {
    const kept = JSON.parse(readFileSync(demoFile, 'utf8'));
    if (kept.admin_client_secret === admin.admin_client_secret) return kept;
    const data = { ...kept, ...admin };
    writeFileSync(demoFile, JSON.stringify(data, null, 2), { mode: 0o600 });
    return data;
  }
  await cli('identity', ENTRY.identityCli, ['orgs', 'create', 'demo'], envs.identity).catch(() => undefined);
  const password = randomBytes(12).toString('base64url');
  // .hush-demo.json lost but the user kept: give it a new password.
  await cli('identity', ENTRY.identityCli, ['users', 'create', 'demo', `--password=${password}`, '--org', 'demo'], envs.identity).catch(() =>
    cli('identity', ENTRY.identityCli, ['users', 'set-password', 'demo', `--password=${password}`], envs.identity),
  );
  const client = await cli(
    'identity',
    ENTRY.identityCli,
    [
      'clients',
      'create',
      '--id',
      `demo-cli-${randomBytes(3).toString('hex')}`,
      '--name',
      'Demo CLI',
      '--org',
      'demo',
      '--grants',
      'client_credentials,refresh_token',
      '--scopes',
      'secrets:read,secrets:write',
    ],
    envs.identity,
  );
  const token = await cli('secrets', ENTRY.secretsCli, ['tokens', 'create', 'demo', '--label', 'demo'], envs.secrets);
  const data = { user: 'demo', password, client_id: client.client_id, client_secret: client.client_secret, custid: 'demo', api_token: token.api_token, ...admin };
  writeFileSync(demoFile, JSON.stringify(data, null, 2), { mode: 0o600 });
  return data;
}

async function all(env) {
  if (!(await reachable(env.IDENTITY_DATABASE_URL)) && !process.env.IDENTITY_DATABASE_URL && !process.env.SECRETS_DATABASE_URL) {
    log('postgres', `no PostgreSQL at ${new URL(env.IDENTITY_DATABASE_URL).host}: using embedded PGlite (data in .data/pglite)`);
    env = {
      ...env,
      IDENTITY_DATABASE_URL: await embeddedPostgres('identity', 55432),
      SECRETS_DATABASE_URL: await embeddedPostgres('secrets', 55433),
      DATABASE_POOL_MAX: '1',
      CLIENT_CACHE: 'false',
    };
  }
  const envs = environments(env);
  await Promise.all([ensureDatabase('identity', envs.identity), ensureDatabase('secrets', envs.secrets)]);
  await setup('identity', ENTRY.identityCli, ['bootstrap'], envs.identity);
  await setup('secrets', ENTRY.secretsCli, ['migrate'], envs.secrets);
  // Before the services start: with embedded PostgreSQL only one connection at a time exists.
  const d = await demo(envs);
  let inbox = 'your SMTP server';
  if (!env.SMTP_URL) {
    const { startMailCatcher } = await import('./mail-catcher.mjs');
    await startMailCatcher();
    inbox = 'http://127.0.0.1:8025';
    log('mail', 'no SMTP_URL: local mail catcher on smtp://127.0.0.1:1025, inbox http://127.0.0.1:8025');
  }
  const services = [
    ['identity', ENTRY.identity, envs.identity, `http://127.0.0.1:${envs.identity.MANAGEMENT_PORT}/healthz`],
    ['secrets', ENTRY.secrets, envs.secrets, `http://127.0.0.1:${envs.secrets.MANAGEMENT_PORT}/healthz`],
    ['mailer', ENTRY.mailer, envs.mailer, `http://127.0.0.1:${envs.mailer.MANAGEMENT_PORT}/healthz`],
  ];
  if (!(await redisAnswers(env.REDIS_URL))) {
    // Same code path for the e-mail (@hush/mail), sent by the secrets service from its outbox.
    log(
      'redis',
      `no Redis at ${env.REDIS_URL}: e-mail is sent in-process by the secrets service and identity (DELIVERY_MODE=inline); the mailer is not started, and login/token rate limits are off`,
    );
    services.pop();
    for (const e of [envs.secrets, envs.identity]) {
      e.DELIVERY_MODE = 'inline';
      e.SMTP_URL = envs.mailer.SMTP_URL;
    }
  }
  let started = false;
  // Without Redis every reconnect attempt would log a warning: keep the terminal readable.
  const level = env.LOG_LEVEL ?? (envs.secrets.DELIVERY_MODE === 'inline' ? 'error' : 'warn');
  const runs = services.map(([name, entry, e, health]) => {
    const start = () =>
      run(name, entry, [], { ...e, LOG_LEVEL: level }).then(({ code }) => {
        // An exit while running is supervise()'s to report, with what happens next.
        if (stopping || !started) log(name, `exited (${code})`);
        return code;
      });
    const restart = () => {
      const exited = start();
      waitHealthy(health).then(
        () => log(name, 'running again'),
        () => undefined,
      );
      return exited;
    };
    return { name, exited: start(), restart };
  });
  const failedToStart = runs.map(({ name, exited }) => {
    return exited.then((code) => {
      if (started || stopping) return;
      // A service that stops while starting: say why and what to do, instead of waiting for its health.
      if (keyMismatch.has(name)) {
        throw new KeyMismatchError(`${name}'s database does not fit this checkout's keys.\n${mismatchAdvice({ keyName: `${name.toUpperCase()}_MASTER_KEY`, envFile })}`);
      }
      throw new Error(`${name} exited (${code}) while starting; its output is above`);
    });
  });
  await Promise.race([Promise.all(services.map(([, , , health]) => waitHealthy(health))), ...failedToStart]);
  started = true;
  // From now on a service that dies is restarted, or, if it keeps dying, everything stops.
  const giveUp = (message) => {
    process.stderr.write(`\nlocal: ${message}\n`);
    stopAll(1);
  };
  for (const { name, exited, restart } of runs) supervise(name, exited, restart, { log, stopping: () => stopping, giveUp });
  const token = `${env.AUTH_URL}/auth/realms/public/protocol/openid-connect/token`;
  process.stdout.write(`
Hush is running.
  web app    ${env.BASE_URL}/   (open it in a browser; sign in as ${d.user} / ${d.password})
  identity   ${env.AUTH_URL}/auth/realms/public/.well-known/openid-configuration
  secrets    ${env.BASE_URL}/api/v1/status
  e-mail     ${inbox}
  demo user  ${d.user} / ${d.password} (organization demo)
  admin      client ${d.admin_client_id} / ${d.admin_client_secret} (realm-admin, Keycloak's admin REST API)
  consoles   ${env.AUTH_URL}/auth/admin/ (for administrators: npm run identity -- roles grant realm-admin --user ${d.user})
             ${env.AUTH_URL}/auth/realms/public/account (every user: profile, password, sessions)

Try it (copy-paste into another terminal):

  TOKEN=$(curl -s ${token} -d grant_type=client_credentials -d scope='secrets:read secrets:write' \\
    -d client_id=${d.client_id} -d client_secret=${d.client_secret} | jq -r .access_token)
  curl -s -H "Authorization: Bearer $TOKEN" ${env.BASE_URL}/api/v1/share \\
    -d secret='the database password' -d ttl=3600 -d recipient=friend@example.com | tee share.json | jq
  curl -s -X POST ${env.BASE_URL}/api/v1/secret/$(jq -r .secret_key share.json) | jq     # the value, once
  curl -s -X POST ${env.BASE_URL}/api/v1/secret/$(jq -r .secret_key share.json) | jq     # 404 now
  curl -s -H "Authorization: Bearer $TOKEN" -X POST ${env.BASE_URL}/api/v1/private/$(jq -r .metadata_key share.json) | jq
  curl -s -u ${d.custid}:${d.api_token} ${env.BASE_URL}/api/v1/share -d secret='Onetime Secret style, with an API token' | jq

The e-mail to friend@example.com is in the inbox above; its link opens the reveal page.

The admin REST API (Keycloak's), as the first administrator:

  ADMIN=$(curl -s ${token} -d grant_type=client_credentials \\
    -d client_id=${d.admin_client_id} -d client_secret=${d.admin_client_secret} | jq -r .access_token)
  curl -s -H "Authorization: Bearer $ADMIN" ${env.AUTH_URL}/auth/admin/realms/public/clients | jq '.[].clientId'

Stop with Ctrl-C.
`);
}

const argv = process.argv.slice(2);
const [target = 'all', ...args] = argv[0] === '--fresh' ? ['all', ...argv] : argv;
const env = loadEnv();
const envs = environments(env);
try {
  switch (target) {
    case 'all':
      if (args.includes('--fresh')) await fresh(env);
      await all(env);
      break;
    case 'identity':
    case 'secrets': {
      const e = envs[target];
      await ensureDatabase(target, e);
      await setup(target, target === 'identity' ? ENTRY.identityCli : ENTRY.secretsCli, [target === 'identity' ? 'bootstrap' : 'migrate'], e);
      process.exit((await run(target, ENTRY[target], args, e)).code);
      break;
    }
    case 'identity-cli':
    case 'secrets-cli': {
      const name = target.replace('-cli', '');
      const e = envs[name];
      await ensureDatabase(name, e);
      const child = spawn(process.execPath, [join(root, name === 'identity' ? ENTRY.identityCli : ENTRY.secretsCli), ...args], { env: e, stdio: 'inherit' });
      child.on('exit', (code) => process.exit(code ?? 1));
      break;
    }
    default:
      process.stderr.write('usage: node scripts/local.mjs [all [--fresh] | --fresh | identity | secrets | identity-cli … | secrets-cli …]\n');
      process.exit(2);
  }
} catch (err) {
  process.stderr.write(err instanceof KeyMismatchError ? `\n${err.message}\n` : `local: ${err.message}\n`);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
}

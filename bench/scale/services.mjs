// Identity and the secrets service (and the mailer, for the soak) as the scale and soak benchmarks
// run them: the built entry points of a checkout, with their start scripts' Node flags, on
// databases of the bench's own, with throw-away Redis prefixes and ports; their CLIs for set-up.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { admin, databaseUrl, nodeFlags, randomPort, redisUrl } from '../common.mjs';

/** The password of the bench's sign-in users, and the bcrypt cost their hashes use (the same on every database of a run). */
export const LOGIN_PASSWORD = 'correct horse battery staple';
export const LOGIN_USERS = 32;

/**
 * The environments of one bench run: databases `<tag>_identity` and `<tag>_secrets` (created by
 * `create()`), ports, keys and prefixes; `overrides` per service.
 */
export function stack(root, tag, overrides = {}) {
  const ports = { identity: randomPort(), identityManagement: randomPort(), secrets: randomPort(), secretsManagement: randomPort(), mailer: randomPort() };
  const auth = `http://127.0.0.1:${ports.identity}`;
  const base = `http://127.0.0.1:${ports.secrets}`;
  const databases = { identity: `${tag}_identity`, secrets: `${tag}_secrets` };
  const common = { ...process.env, MAIL_SEALING_KEY: randomBytes(32).toString('hex'), REDIS_URL: redisUrl, LOG_LEVEL: 'warn' };
  const queuePrefix = `${tag}:q`;
  const env = {
    identity: {
      ...common,
      MASTER_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl(databases.identity),
      PORT: String(ports.identity),
      MANAGEMENT_PORT: String(ports.identityManagement),
      AUTH_URL: auth,
      SECRETS_API_AUDIENCE: `${base}/api/v1`,
      REDIS_PREFIX: `${tag}:id:`,
      QUEUE_PREFIX: queuePrefix,
      ADMIN_CLIENT_SECRET: randomBytes(24).toString('hex'),
      // The limits stay on (their Redis round trips are part of the cost) but never trip.
      LOGIN_MAX_FAILURES: '1000000',
      LOGIN_MAX_FAILURES_PER_IP: '1000000',
      CLIENT_AUTH_MAX_FAILURES: '1000000',
      CLIENT_AUTH_MAX_FAILURES_PER_IP: '1000000',
      SIGN_IN_MAX_PER_IP: '1000000',
      LOGIN_PAGE_MAX_PER_IP: '1000000',
      LOGIN_CONCURRENCY_PER_IP: '1000000',
      ...overrides.identity,
    },
    secrets: {
      ...common,
      MASTER_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl(databases.secrets),
      PORT: String(ports.secrets),
      MANAGEMENT_PORT: String(ports.secretsManagement),
      BASE_URL: base,
      IDENTITY_ISSUER: `${auth}/auth/realms/public`,
      REDIS_PREFIX: `${tag}:s:`,
      QUEUE_PREFIX: queuePrefix,
      RATE_LIMIT_MAX: '1000000000',
      ...overrides.secrets,
    },
    mailer: { ...common, MANAGEMENT_PORT: String(ports.mailer), QUEUE_PREFIX: queuePrefix, REDIS_PREFIX: `${tag}:m:`, ...overrides.mailer },
  };
  const entry = (service, file = 'main.js') => join(root, 'services', service, 'dist', 'src', file);
  return {
    root,
    ports,
    auth,
    base,
    issuer: `${auth}/auth/realms/public`,
    databases,
    env,
    async create() {
      for (const db of Object.values(databases)) await admin(`CREATE DATABASE "${db}"`);
    },
    async drop() {
      for (const db of Object.values(databases)) await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    },
    /** Runs a service's CLI (in this process, as the tests do) with --json; parsed output. */
    async cli(service, ...args) {
      const { runCli } = await import(pathToFileURL(entry(service, 'cli/cli.js')).href);
      const r = await runCli([...args, '--json'], env[service]);
      if (r.code !== 0) throw new Error(`${service} ${args.join(' ')}: ${r.stderr}${r.stdout}`);
      try {
        return JSON.parse(r.stdout);
      } catch {
        return r.stdout;
      }
    },
    /** Starts a service (`extraEnv` on top of its environment); resolves once it answers. */
    async start(service, extraEnv = {}) {
      const child = spawn(process.execPath, [...nodeFlags(root, service), entry(service)], { env: { ...env[service], ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
      const exited = once(child, 'exit');
      const probe = {
        identity: `${auth}/auth/realms/public/.well-known/openid-configuration`,
        secrets: `http://127.0.0.1:${env.secrets.MANAGEMENT_PORT}/readyz`,
        mailer: `http://127.0.0.1:${env.mailer.MANAGEMENT_PORT}/readyz`,
      }[service];
      await answers(probe, child);
      return {
        child,
        pid: child.pid,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await exited;
        },
      };
    },
  };
}

/**
 * What a benchmark itself uses, on freshly created databases: the secrets schema and an API token
 * of account `custid`; identity bootstrapped (its admin client's secret is ADMIN_CLIENT_SECRET), an
 * API with the scope `bench:read`, a client-credentials client of it, a web client redirecting to
 * http://127.0.0.1:1/cb, and LOGIN_USERS sign-in users (`bench-login-<n>`, LOGIN_PASSWORD).
 */
export async function prepare(s, custid) {
  await s.cli('secrets', 'migrate');
  const apiToken = (await s.cli('secrets', 'tokens', 'create', custid)).api_token;
  await s.cli('identity', 'bootstrap');
  await s.cli('identity', 'apis', 'create', 'https://api.bench.example.com', '--scopes', 'bench:read');
  const client = (name, ...args) => s.cli('identity', 'clients', 'create', '--name', `${custid}-${name}`, ...args);
  const ccClient = await client('cc', '--grants', 'client_credentials,refresh_token', '--scopes', 'bench:read');
  const redirect = 'http://127.0.0.1:1/cb';
  const webClient = {
    ...(await client('web', '--grants', 'authorization_code,refresh_token', '--scopes', 'openid,profile,email', '--redirect-uri', redirect)),
    redirect_uri: redirect,
  };
  const users = Array.from({ length: LOGIN_USERS }, (_, i) => `bench-login-${i}`);
  for (const u of users) await s.cli('identity', 'users', 'create', u, '--password', LOGIN_PASSWORD, '--email', `${u}@bench.example.com`, '--email-verified');
  return { auth: `Basic ${Buffer.from(`${custid}:${apiToken}`).toString('base64')}`, ccClient, webClient, users };
}

async function answers(url, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the service exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

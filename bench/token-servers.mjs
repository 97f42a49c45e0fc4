// The two servers the token benchmarks compare, started the same way for each of them
// (token-endpoint.mjs: throughput; token-cost.mjs: CPU per token per process): identity built in
// `root`, on a fresh database with one client-credentials client, and bare oidc-provider.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { startFlags } from '../scripts/start-flags.mjs';

export const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withAdmin(sql, params) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** Transactions (one per statement outside BEGIN) run in `database`, as PostgreSQL counts them. */
export async function transactions(database) {
  return Number((await withAdmin('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [database]))[0].n);
}

/** `stdout`: where the server's standard output goes (a file descriptor), or nowhere. */
function start(script, env, execArgv, stdout = 'ignore') {
  return fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', stdout, 'inherit', 'ipc'] });
}

async function waitHttp(url) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

const form = (fields) => new URLSearchParams({ grant_type: 'client_credentials', scope: 'bench:read', ...fields }).toString();

/** A started server: its process, token URL and request body; `stop()` ends it. */
async function running(child, url, body, extra = {}) {
  return {
    child,
    url,
    body,
    ...extra,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The Node flags both servers of a run start with: identity's start script's in `root` (as the
 * Dockerfile runs it), or `override` (a space-separated list) when given. Bare oidc-provider gets
 * the same ones, so that a flag helping the runtime shows in both and not in the ratio.
 */
export function serverFlags(root, override) {
  return override === undefined ? startFlags(root, 'identity') : override.split(/\s+/).filter(Boolean);
}

/**
 * Identity built in `root`, with `alg` as the realm's signature algorithm, on a database of its own
 * (its name is pushed to `databases` for the caller to drop), with one API and one client.
 * `execArgv`: its Node flags (`serverFlags`); `env`: settings of its own (over the defaults here).
 * The started server also has its `issuer` and `cli` (the admin CLI against its database).
 */
export async function startIdentity(root, alg, { databases, execArgv = [], stdout, env: settings = {} }) {
  const database = `bench_identity_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  await withAdmin(`CREATE DATABASE "${database}"`);
  databases.push(database);
  const port = 18080 + Math.floor(Math.random() * 1000);
  const env = {
    DATABASE_URL: dbUrl.toString(),
    MASTER_KEY: randomBytes(32).toString('hex'),
    AUTH_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    MANAGEMENT_PORT: String(port + 1000),
    LOG_LEVEL: 'warn',
    REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    SECRETS_API_AUDIENCE: 'https://bench.example.com',
    DEFAULT_SIGNING_ALG: alg,
    // No mailer runs beside it: account e-mails (none here) would go over SMTP from identity.
    DELIVERY_MODE: 'inline',
    ...settings,
  };
  const { runCli } = await import(join(root, 'services/identity/dist/src/cli/cli.js'));
  const cli = async (...args) => {
    const r = await runCli([...args, '--json'], { ...process.env, ...env });
    if (r.code !== 0) throw new Error(r.stderr + r.stdout);
    return JSON.parse(r.stdout);
  };
  await cli('bootstrap');
  await cli('apis', 'create', 'https://api.bench.example.com', '--scopes', 'bench:read');
  const client = await cli('clients', 'create', '--name', 'bench', '--grants', 'client_credentials,refresh_token', '--scopes', 'bench:read');
  const child = start(join(root, 'services/identity/dist/src/main.js'), env, execArgv, stdout);
  const issuer = `http://127.0.0.1:${port}/auth/realms/public`;
  await waitHttp(`${issuer}/.well-known/openid-configuration`);
  return running(child, `${issuer}/protocol/openid-connect/token`, form({ client_id: client.client_id, client_secret: client.client_secret }), { database, issuer, cli });
}

/** Bare oidc-provider (bench/bare-provider.mjs of `root`: memory adapter, no refresh tokens) signing with `alg`. */
export async function startBare(root, alg, { execArgv = [], stdout } = {}) {
  const port = 19080 + Math.floor(Math.random() * 1000);
  const secret = randomBytes(32).toString('base64url');
  const child = start(join(root, 'bench/bare-provider.mjs'), { PORT: String(port), CLIENT_SECRET: secret, ALG: alg }, execArgv, stdout);
  await once(child, 'message');
  return running(child, `http://127.0.0.1:${port}/token`, form({ client_id: 'bench', client_secret: secret }));
}

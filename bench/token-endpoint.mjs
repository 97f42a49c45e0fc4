#!/usr/bin/env node
// bench/token-endpoint: client-credentials throughput of identity (real PostgreSQL, refresh
// tokens persisted, rate limiter on Redis) against bare oidc-provider (in-memory, no refresh
// tokens) measured in the same run, signing with the same algorithm. Run from the root, after
// `npx tsc -b`: `pnpm bench:token [--alg RS256|ES256|both]` (default both: each algorithm in turn,
// identity with it as the realm default, then bare oidc-provider with it).
//   BENCH_SECONDS (default 15), BENCH_CONNECTIONS (default 32)
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const algArg = process.argv.includes('--alg') ? process.argv[process.argv.indexOf('--alg') + 1] : 'both';
const ALGS = algArg === 'both' ? ['RS256', 'ES256'] : [algArg];
if (!ALGS.every((a) => a === 'RS256' || a === 'ES256')) throw new Error('--alg must be RS256, ES256 or both');

async function withAdmin(sql, params) {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

// BENCH_PROFILE=dir writes a CPU profile of each server (node --cpu-prof) into dir.
const profileDir = process.env.BENCH_PROFILE;

function start(script, env) {
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return child;
}

async function waitHttp(url) {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function load(name, url, body) {
  // Warm-up (JIT, pools), then the measured run.
  const warm = await autocannon({ url, method: 'POST', connections, duration: 2, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const r = await autocannon({ url, method: 'POST', connections, duration: seconds, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const ok = r['2xx'];
  return { name, rps: ok / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, requests: warm.requests.total + r.requests.total };
}

const children = [];
const databases = [];
try {
  const results = [];
  for (const alg of ALGS) results.push(await measure(alg));
  console.log(`\ntoken endpoint, client_credentials, ${connections} connections, ${seconds} s, ${os.cpus().length} cores, Node ${process.version}`);
  console.log('| alg | server | tokens/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { alg, hush, ceiling } of results) {
    for (const r of [hush, ceiling]) console.log(`| ${alg} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`);
  }
  console.log('');
  for (const { alg, hush, ceiling, perToken } of results) {
    console.log(`${alg}: identity ${(perToken / hush.requests).toFixed(2)} SQL statements per token; ratio identity / bare oidc-provider: ${(hush.rps / ceiling.rps).toFixed(2)}`);
  }
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const db of databases) await withAdmin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
}

/** identity with `alg` as the realm's signature algorithm, then bare oidc-provider signing with it too. */
async function measure(alg) {
  const dbName = `bench_identity_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(admin);
  dbUrl.pathname = `/${dbName}`;
  await withAdmin(`CREATE DATABASE "${dbName}"`);
  databases.push(dbName);
  const port = 18080 + Math.floor(Math.random() * 1000);
  const env = {
    DATABASE_URL: dbUrl.toString(),
    MASTER_KEY: randomBytes(32).toString('hex'),
    AUTH_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    SECRETS_API_AUDIENCE: 'https://bench.example.com',
    DEFAULT_SIGNING_ALG: alg,
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

  const identity = start(join(root, 'services/identity/dist/src/main.js'), env);
  children.push(identity);
  const issuer = `http://127.0.0.1:${port}/auth/realms/public`;
  await waitHttp(`${issuer}/.well-known/openid-configuration`);
  const body = new URLSearchParams({ grant_type: 'client_credentials', scope: 'bench:read', client_id: client.client_id, client_secret: client.client_secret }).toString();
  const probe = await (await fetch(`${issuer}/protocol/openid-connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).json();
  if (!probe.access_token || !probe.refresh_token) throw new Error(`identity did not issue both tokens: ${JSON.stringify(probe)}`);
  const signedWith = JSON.parse(Buffer.from(probe.access_token.split('.')[0], 'base64url').toString()).alg;
  if (signedWith !== alg) throw new Error(`identity signed with ${signedWith}, not ${alg}`);
  // Transactions (one per statement outside BEGIN) the service runs per token, as PostgreSQL counts them.
  const xacts = async () => Number((await withAdmin('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [dbName]))[0].n);
  const before = await xacts();
  const hush = await load('identity (PostgreSQL, refresh tokens, Redis limiter)', `${issuer}/protocol/openid-connect/token`, body);
  await new Promise((r) => setTimeout(r, 600)); // statistics reach pg_stat_database within 500 ms
  const perToken = (await xacts()) - before;
  identity.kill('SIGTERM');
  await once(identity, 'exit');

  const barePort = port + 1;
  const secret = randomBytes(32).toString('base64url');
  const bare = start(join(root, 'bench/bare-provider.mjs'), { PORT: String(barePort), CLIENT_SECRET: secret, ALG: alg });
  children.push(bare);
  await once(bare, 'message');
  const bareBody = new URLSearchParams({ grant_type: 'client_credentials', scope: 'bench:read', client_id: 'bench', client_secret: secret }).toString();
  const ceiling = await load('bare oidc-provider (memory adapter, no refresh tokens)', `http://127.0.0.1:${barePort}/token`, bareBody);
  bare.kill('SIGTERM');
  await once(bare, 'exit');
  return { alg, hush, ceiling, perToken };
}

#!/usr/bin/env node
// bench/token-endpoint: client-credentials throughput of identity (real PostgreSQL, refresh
// tokens persisted, rate limiter on Redis) against bare oidc-provider (in-memory, no refresh
// tokens) measured in the same run, signing with the same algorithm. Run from the root, after
// `npx tsc -b`: `pnpm bench:token [--alg RS256|ES256|both]` (default both: each algorithm in turn,
// identity with it as the realm default, then bare oidc-provider with it).
//   BENCH_SECONDS (default 15), BENCH_CONNECTIONS (default 32), BENCH_NODE_FLAGS (default: identity's start flags)
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import os from 'node:os';
import autocannon from 'autocannon';
import { serverFlags, startBare, startIdentity, transactions, withAdmin } from './token-servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const algArg = process.argv.includes('--alg') ? process.argv[process.argv.indexOf('--alg') + 1] : 'both';
const ALGS = algArg === 'both' ? ['RS256', 'ES256'] : [algArg];
if (!ALGS.every((a) => a === 'RS256' || a === 'ES256')) throw new Error('--alg must be RS256, ES256 or both');

// BENCH_PROFILE=dir writes a CPU profile of each server (node --cpu-prof) into dir.
const profileDir = process.env.BENCH_PROFILE;

// Both servers start with identity's start-script flags (BENCH_NODE_FLAGS instead, when set).
const execArgv = [...serverFlags(root, process.env.BENCH_NODE_FLAGS), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];

async function load(name, url, body) {
  // Warm-up (JIT, pools), then the measured run.
  const warm = await autocannon({ url, method: 'POST', connections, duration: 2, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const r = await autocannon({ url, method: 'POST', connections, duration: seconds, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const ok = r['2xx'];
  return { name, rps: ok / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, requests: warm.requests.total + r.requests.total };
}

const servers = [];
const databases = [];
try {
  const results = [];
  for (const alg of ALGS) results.push(await measure(alg));
  console.log(`\ntoken endpoint, client_credentials, ${connections} connections, ${seconds} s, ${os.cpus().length} cores, Node ${process.version} ${execArgv.join(' ')}`);
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
  for (const { child } of servers) if (child.exitCode === null) child.kill('SIGKILL');
  for (const db of databases) await withAdmin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
}

/** identity with `alg` as the realm's signature algorithm, then bare oidc-provider signing with it too. */
async function measure(alg) {
  const identity = await startIdentity(root, alg, { databases, execArgv });
  servers.push(identity);
  const probe = await (await fetch(identity.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: identity.body })).json();
  if (!probe.access_token || !probe.refresh_token) throw new Error(`identity did not issue both tokens: ${JSON.stringify(probe)}`);
  const signedWith = JSON.parse(Buffer.from(probe.access_token.split('.')[0], 'base64url').toString()).alg;
  if (signedWith !== alg) throw new Error(`identity signed with ${signedWith}, not ${alg}`);
  // Transactions (one per statement outside BEGIN) the service runs per token, as PostgreSQL counts them.
  const before = await transactions(identity.database);
  const hush = await load('identity (PostgreSQL, refresh tokens, Redis limiter)', identity.url, identity.body);
  await new Promise((r) => setTimeout(r, 600)); // statistics reach pg_stat_database within 500 ms
  const perToken = (await transactions(identity.database)) - before;
  await identity.stop();

  const bare = await startBare(root, alg, { execArgv });
  servers.push(bare);
  const ceiling = await load('bare oidc-provider (memory adapter, no refresh tokens)', bare.url, bare.body);
  await bare.stop();
  return { alg, hush, ceiling, perToken };
}

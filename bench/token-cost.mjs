#!/usr/bin/env node
// bench/token-cost: what one client-credentials token costs, in CPU time per token of each process
// on its path: identity, the PostgreSQL connections serving it, PostgreSQL's background processes
// (WAL writer, checkpointer, autovacuum), Redis and the load generator; then the same for bare
// oidc-provider signing with the same algorithm. CPU time per token is the figure other load on
// the machine disturbs least: tokens/s there can halve while CPU per token moves by a tenth.
// Run from the root, after `npx tsc -b`:
//   node_modules/.bin/node bench/token-cost.mjs [--alg RS256|ES256|both] [--rounds N] [--root <checkout>] [--node-flags "<flags>"]
// --root: measure the identity built in another checkout (bare oidc-provider stays this one's).
// Both servers start with identity's start-script flags (of --root's checkout), or --node-flags.
//   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32)
// Linux only (reads /proc). Redis and PostgreSQL's background processes are counted whole: on a
// machine where something else uses them, their figures include it.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import os from 'node:os';
import autocannon from 'autocannon';
import { serverFlags, startBare, startIdentity, transactions, withAdmin } from './token-servers.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const algArg = arg('--alg', 'both');
const ALGS = algArg === 'both' ? ['RS256', 'ES256'] : [algArg];
if (!ALGS.every((a) => a === 'RS256' || a === 'ES256')) throw new Error('--alg must be RS256, ES256 or both');
const rounds = Number(arg('--rounds', '1'));
const root = arg('--root', here);
const flagsArg = process.argv.find((a) => a.startsWith('--node-flags='))?.slice('--node-flags='.length) ?? arg('--node-flags', undefined);
const execArgv = serverFlags(root, flagsArg);
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const BACKGROUND = /walwriter|checkpointer|background writer|autovacuum|logical replication|stats/;

/** CPU ticks (user + system) of every process, with its command line. */
function processes() {
  const out = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.push({ pid, comm, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/** Ticks so far per process of interest; PostgreSQL connections by pid (they come and go). */
function snapshot(serverPid, database) {
  const all = processes();
  const sum = (pred) => all.filter(pred).reduce((t, p) => t + p.ticks, 0);
  const postgres = all.filter((p) => p.comm.startsWith('postgres'));
  return {
    server: sum((p) => p.pid === String(serverPid)),
    connections: Object.fromEntries(postgres.filter((p) => database && p.cmdline.includes(database)).map((p) => [p.pid, p.ticks])),
    background: sum((p) => p.comm.startsWith('postgres') && BACKGROUND.test(p.cmdline)),
    redis: sum((p) => p.comm.startsWith('redis')),
    load: process.cpuUsage(),
  };
}

/** µs of CPU per token of each process between two snapshots. */
function perToken(a, b, tokens) {
  const us = (ticks) => Math.round((ticks * 1e6) / ticksPerSecond / tokens);
  let connections = 0;
  for (const [pid, ticks] of Object.entries(b.connections)) connections += ticks - (a.connections[pid] ?? 0);
  const load = (b.load.user + b.load.system - a.load.user - a.load.system) / tokens;
  return { server: us(b.server - a.server), connections: us(connections), background: us(b.background - a.background), redis: us(b.redis - a.redis), load: Math.round(load) };
}

/** Warm-up (JIT, pools), then the measured run, between two snapshots. */
async function load(url, body, pid, database) {
  const options = { url, method: 'POST', connections, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
  await autocannon({ ...options, duration: 2 });
  const statements = database ? await transactions(database) : 0;
  const before = snapshot(pid, database);
  const r = await autocannon({ ...options, duration: seconds });
  const cost = perToken(before, snapshot(pid, database), r.requests.total);
  const result = { rps: r['2xx'] / r.duration, p99: r.latency.p99, failed: r.non2xx + r.errors, cost };
  if (database) {
    await new Promise((resolve) => setTimeout(resolve, 600)); // statistics reach pg_stat_database within 500 ms
    result.statements = ((await transactions(database)) - statements) / r.requests.total;
  }
  return result;
}

const servers = [];
const databases = [];

/** One server's run: started, measured, stopped. */
async function measured(server) {
  servers.push(server);
  const result = await load(server.url, server.body, server.child.pid, server.database);
  await server.stop();
  return result;
}

try {
  const rows = [];
  for (let round = 1; round <= rounds; round++) {
    for (const alg of ALGS) {
      rows.push({ alg, name: 'identity', ...(await measured(await startIdentity(root, alg, { databases, execArgv }))) });
      rows.push({ alg, name: 'bare oidc-provider', ...(await measured(await startBare(here, alg, { execArgv }))) });
    }
  }
  console.log(`\nCPU µs per token, client_credentials, ${connections} connections, ${seconds} s, ${os.cpus().length} cores, Node ${process.version} ${execArgv.join(' ')}`);
  console.log(
    '| alg | server | tokens/s | p99 ms | failed | server process | PostgreSQL connections | PostgreSQL background | Redis | load generator | SQL statements per token |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const c = r.cost;
    const sql = r.statements === undefined ? '–' : r.statements.toFixed(2);
    console.log(`| ${r.alg} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.failed} | ${c.server} | ${c.connections} | ${c.background} | ${c.redis} | ${c.load} | ${sql} |`);
  }
} finally {
  for (const { child } of servers) if (child.exitCode === null) child.kill('SIGKILL');
  for (const db of databases) await withAdmin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
}

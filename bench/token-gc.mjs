#!/usr/bin/env node
// bench/token-gc: what the garbage collector costs per client-credentials token, identity against
// bare oidc-provider: each server runs with V8's --trace-gc-nvp under 32 connections, and the
// scavenges of the measured run are summed per token: bytes allocated, bytes promoted to the old
// generation, scavenge time (this one moves with the machine's load; the bytes do not).
// Run from the root, after `npx tsc -b`:
//   node_modules/.bin/node bench/token-gc.mjs [--alg RS256|ES256] [--root <checkout>] [--node-flags "<flags>"]
//   BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 32)
// Both servers start with identity's start-script flags (of --root's checkout), or --node-flags.
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { serverFlags, startBare, startIdentity, withAdmin } from './token-servers.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const alg = arg('--alg', 'ES256');
const root = arg('--root', here);
const flagsArg = process.argv.find((a) => a.startsWith('--node-flags='))?.slice('--node-flags='.length) ?? arg('--node-flags', undefined);
const execArgv = [...serverFlags(root, flagsArg), '--trace-gc-nvp'];
const dir = mkdtempSync(join(tmpdir(), 'token-gc-'));
const databases = [];

/** Sums the scavenges (and counts the full collections) in a --trace-gc-nvp log. */
function summarise(text, tokens) {
  let scavenges = 0;
  let allocated = 0;
  let promoted = 0;
  let pause = 0;
  let full = 0;
  for (const line of text.split('\n')) {
    const field = (name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    if (/\bgc=s\b/.test(line)) {
      scavenges++;
      allocated += field('allocated');
      promoted += field('promoted');
      pause += field('pause');
    } else if (/\bgc=(ms|mc)\b/.test(line)) full++;
  }
  const kb = (bytes) => (bytes / tokens / 1024).toFixed(1);
  return { tokens, scavenges, full, allocatedKb: kb(allocated), promotedKb: kb(promoted), scavengeUs: ((pause * 1000) / tokens).toFixed(1) };
}

async function measure(name, server, log) {
  const options = { url: server.url, method: 'POST', connections, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: server.body };
  try {
    await autocannon({ ...options, duration: 2 });
    const mark = readFileSync(log, 'utf8').length;
    const r = await autocannon({ ...options, duration: seconds });
    return { name, ...summarise(readFileSync(log, 'utf8').slice(mark), r.requests.total) };
  } finally {
    await server.stop();
  }
}

try {
  const identityLog = join(dir, 'identity.log');
  const bareLog = join(dir, 'bare.log');
  const rows = [
    await measure('identity', await startIdentity(root, alg, { databases, execArgv, stdout: openSync(identityLog, 'w') }), identityLog),
    await measure('bare oidc-provider', await startBare(here, alg, { execArgv, stdout: openSync(bareLog, 'w') }), bareLog),
  ];
  console.log(`\n${alg}, ${connections} connections, ${seconds} s, Node ${process.version} ${execArgv.join(' ')}`);
  console.log('| server | tokens | scavenges | full collections | KB allocated per token | KB promoted per token | scavenge µs per token |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.tokens} | ${r.scavenges} | ${r.full} | ${r.allocatedKb} | ${r.promotedKb} | ${r.scavengeUs} |`);
} finally {
  for (const db of databases) await withAdmin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
}

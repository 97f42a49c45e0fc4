#!/usr/bin/env node
// Resident memory of the three services, started as scripts/local.mjs starts them:
// the same entry points (services/*/dist/src/main.js, run by this Node), the same environment
// variables, throw-away databases and Redis prefixes.
//
//   pnpm exec tsc -b && node_modules/.bin/node bench/memory.mjs [--duration 10] [--connections 32] [--root <checkout>]
//     [--settle 5] [--idle 35] [--node-flags '<flags for all three>'] [--shared-node]
//
// Each service runs with the Node flags of its start script (services/*/package.json, as in the
// Dockerfiles) of the measured checkout, or --node-flags (`--node-flags=` for none).
// It prints each process's RSS (VmRSS from /proc) once all three answer /healthz and have been
// idle for --settle seconds and again at --idle seconds, then drives the secrets API as
// bench/secrets-api.mjs does (shares without passphrase, every key read once, shares with a
// passphrase, then both at once), and prints each RSS right after the load and --idle seconds
// later. --root measures another checkout (built) with this script. Targets: < 100 MB
// idle (the --idle figure), < 160 MB right after the benchmark; each figure says whether it meets its target.
// Each RSS is broken down into the node binary's pages (and how much of them the kernel maps as
// 2 MB huge pages), the V8 heap (committed, from the service's /metrics), other anonymous memory
// and other files.
// The services run from a copy of this node binary, copied as an image layer's extraction or `cp`
// writes a file: in small writes, so the page cache holds it in small folios. The workspace's own
// binary was written by the `node` package's install in one write; on a kernel with large folios
// (ext4 since 6.16, xfs) its page cache then holds 2 MB folios, a process maps 2 MB wherever it
// touches 4 KB of the binary, and an empty `node -e` is ~60 MB resident instead of ~33 (measured:
// a copy made by `cp`, `cat` or `tar` maps no huge page, one made by a single writeFile maps 56 MB
// of them). --shared-node measures with the workspace's binary as it is.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { admin, databaseUrl, healthy, nodeFlags as flagsOf, randomPort, redisUrl } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    settle: { type: 'string', default: '5' },
    // The idle figure the target applies to: well after each service's idle compaction (the first
    // quiet 2 s after start; packages/common/src/process/idle-compaction.ts) and after the secrets
    // service's idle bcrypt workers have ended (30 s); also the wait before the last column.
    idle: { type: 'string', default: '35' },
    root: { type: 'string', default: join(here, '..') },
    // Node flags for all three instead of their start scripts' (e.g. --node-flags= for none).
    'node-flags': { type: 'string' },
    'shared-node': { type: 'boolean', default: false },
  },
});
const root = resolve(args.root);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const SETTLE = Number(args.settle) * 1000;
const IDLE = Math.max(Number(args.idle) * 1000, SETTLE);
const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const nodeFlags = (service) => flagsOf(root, service, args['node-flags']);
const entry = (service, file = 'main.js') => join(root, 'services', service, 'dist', 'src', file);

const ports = { identity: randomPort(), secrets: randomPort(), mailer: randomPort() };
const management = { identity: randomPort(), secrets: randomPort(), mailer: ports.mailer };
// The binary the services run: a copy written in small writes (see above), or this one.
const privateDir = args['shared-node'] ? undefined : mkdtempSync(join(tmpdir(), 'hush-node-'));
const nodeBinary = privateDir ? join(privateDir, 'node') : process.execPath;
if (privateDir) copyInSmallWrites(process.execPath, nodeBinary);

/** Copies `from` to `to` 64 KB at a time, as tar or cp write a file (never one large write). */
function copyInSmallWrites(from, to) {
  const [src, dst, chunk] = [openSync(from, 'r'), openSync(to, 'w'), Buffer.alloc(64 * 1024)];
  for (let n; (n = readSync(src, chunk)) > 0;) writeSync(dst, chunk, 0, n);
  closeSync(src);
  closeSync(dst);
  chmodSync(to, 0o755);
}
const auth = `http://127.0.0.1:${ports.identity}`;
const base = `http://127.0.0.1:${ports.secrets}`;
const databases = { identity: `mem_identity_${tag}`, secrets: `mem_secrets_${tag}` };
const common = { ...process.env, MAIL_SEALING_KEY: randomBytes(32).toString('hex'), REDIS_URL: redisUrl, AUTH_URL: auth, BASE_URL: base, LOG_LEVEL: 'warn' };
// scripts/local.mjs's environments(), with throw-away databases, ports and prefixes.
const envs = {
  identity: {
    ...common,
    MASTER_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl(databases.identity),
    PORT: String(ports.identity),
    MANAGEMENT_PORT: String(management.identity),
    SECRETS_API_AUDIENCE: `${base}/api/v1`,
    REDIS_PREFIX: `mem:${tag}:id:`,
  },
  secrets: {
    ...common,
    MASTER_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl(databases.secrets),
    PORT: String(ports.secrets),
    MANAGEMENT_PORT: String(management.secrets),
    IDENTITY_ISSUER: `${auth}/auth/realms/public`,
    REDIS_PREFIX: `mem:${tag}:s:`,
    QUEUE_PREFIX: `mem:${tag}:q`,
    RATE_LIMIT_MAX: '1000000000',
  },
  mailer: { ...common, MANAGEMENT_PORT: String(ports.mailer), SMTP_URL: 'smtp://127.0.0.1:1', QUEUE_PREFIX: `mem:${tag}:q`, REDIS_PREFIX: `mem:${tag}:m:` },
};

/** `flags`: Node's, as the service's start script gives them (scripts/start-flags.mjs). */
function run(file, args, env, flags = []) {
  const child = spawn(nodeBinary, [...flags, file, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return { child, done: once(child, 'exit').then(([code]) => ({ code, out })) };
}
async function cli(service, ...cmd) {
  const { code, out } = await run(entry(service, 'cli/main.js'), [...cmd, '--json'], envs[service]).done;
  if (code !== 0) throw new Error(`${service} ${cmd.join(' ')} failed (${code})`);
  try {
    return JSON.parse(out);
  } catch {
    return undefined; // bootstrap prints more than one document; only `tokens create` is read
  }
}
/**
 * RSS by mapping: the node binary's pages (shared, clean; `binaryHuge` of them mapped as 2 MB
 * pages), the V8 heap (committed, from the service's /metrics), the rest of anonymous memory
 * (malloc, thread stacks, buffers), other files.
 */
async function breakdown(name, pid) {
  const out = { binary: 0, binaryHuge: 0, anonymous: 0, other: 0 };
  let kind = 'other';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const map = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (map) kind = map[1] === nodeBinary ? 'binary' : map[1] === '' || map[1] === '[heap]' ? 'anonymous' : 'other';
    const rssLine = /^Rss:\s+(\d+) kB/.exec(line);
    if (rssLine) out[kind] += Number(rssLine[1]) / 1024;
    const huge = /^FilePmdMapped:\s+(\d+) kB/.exec(line);
    if (huge && kind === 'binary') out.binaryHuge += Number(huge[1]) / 1024;
  }
  const metrics = await (await fetch(`http://127.0.0.1:${management[name]}/metrics`)).text();
  const heap = Number(/^nodejs_heap_size_total_bytes(?:\{[^}]*\})? (\S+)$/m.exec(metrics)?.[1] ?? NaN) / 2 ** 20;
  const { anonymous, ...rest } = out;
  return Object.fromEntries(Object.entries({ ...rest, heap, otherAnonymous: anonymous - heap }).map(([k, v]) => [k, Math.round(v)]));
}
const breakdowns = async () => Object.fromEntries(await Promise.all(Object.entries(procs).map(async ([name, child]) => [name, await breakdown(name, child.pid)])));
const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const load = (opts) =>
  new Promise((res, rej) => autocannon({ connections: CONNECTIONS, ...(opts.amount ? {} : { duration: DURATION }), ...opts }, (err, r) => (err ? rej(err) : res(r))));

const procs = {};
const results = { early: {}, idle: {}, after: {}, settled: {} };
await admin(`CREATE DATABASE "${databases.identity}"`);
await admin(`CREATE DATABASE "${databases.secrets}"`);
try {
  await cli('identity', 'bootstrap');
  await cli('secrets', 'migrate');
  const { api_token } = await cli('secrets', 'tokens', 'create', 'bench');
  for (const service of ['identity', 'secrets', 'mailer']) procs[service] = run(entry(service), [], envs[service], nodeFlags(service)).child;
  await Promise.all(Object.values(ports).map((port) => healthy(`http://127.0.0.1:${port}`, 300)));
  await new Promise((r) => setTimeout(r, SETTLE));
  for (const [name, child] of Object.entries(procs)) results.early[name] = rss(child.pid);
  await new Promise((r) => setTimeout(r, IDLE - SETTLE));
  for (const [name, child] of Object.entries(procs)) results.idle[name] = rss(child.pid);
  results.idleBreakdown = await breakdowns();
  if (process.env.MEM_PROBE) for (const child of Object.values(procs)) child.kill('SIGUSR2');

  const headers = { authorization: `Basic ${Buffer.from(`bench:${api_token}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams({ secret: 'x'.repeat(64), ttl: '3600' }).toString();
  const passBody = new URLSearchParams({ secret: 'x'.repeat(64), ttl: '3600', passphrase: 'correct horse battery staple' }).toString();
  const keys = [];
  await load({
    url: base,
    requests: [{ method: 'POST', path: '/api/v1/share', headers, body, onResponse: (status, b) => status === 200 && keys.push(JSON.parse(b).secret_key) }],
  });
  let next = 0;
  await load({ url: base, amount: keys.length, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `/api/v1/secret/${keys[next++]}` }) }] });
  await Promise.all([
    load({ url: `${base}/api/v1/share`, connections: 4, method: 'POST', headers, body: passBody }),
    load({ url: `${base}/api/v1/share`, connections: 8, method: 'POST', headers, body }),
  ]);
  for (const [name, child] of Object.entries(procs)) results.after[name] = rss(child.pid);
  results.afterBreakdown = await breakdowns();
  if (process.env.MEM_PROBE) for (const child of Object.values(procs)) child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, IDLE));
  for (const [name, child] of Object.entries(procs)) results.settled[name] = rss(child.pid);
  if (process.env.MEM_PROBE) for (const child of Object.values(procs)) child.kill('SIGUSR2');
  await new Promise((r) => setTimeout(r, 200));
  results.shares = keys.length;
} finally {
  for (const child of Object.values(procs)) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await admin(`DROP DATABASE IF EXISTS "${databases.identity}" WITH (FORCE)`);
  await admin(`DROP DATABASE IF EXISTS "${databases.secrets}" WITH (FORCE)`);
  if (privateDir) rmSync(privateDir, { recursive: true, force: true });
}

const mb = (v) => `${v.toFixed(0)} MB`;
const verdict = (v, limit) => `${mb(v)} (${v < limit ? 'meets' : 'OVER'} < ${limit})`;
console.log(
  `memory of ${root} (Node ${process.version}, ${privateDir ? 'a copy of its binary' : 'its binary as installed (--shared-node)'}); ${results.shares} shares, every key read, ${DURATION} s per load phase`,
);
console.log(
  `Node flags: ${Object.keys(procs)
    .map((name) => `${name} ${nodeFlags(name).join(' ') || '-'}`)
    .join(', ')}`,
);
console.log(`| service | idle ${SETTLE / 1000} s | idle ${IDLE / 1000} s (target < 100) | after the benchmark (target < 160) | after + ${IDLE / 1000} s idle |`);
console.log('|---|---|---|---|---|');
for (const name of Object.keys(procs)) {
  console.log(`| ${name} | ${mb(results.early[name])} | ${verdict(results.idle[name], 100)} | ${verdict(results.after[name], 160)} | ${mb(results.settled[name])} |`);
}
console.log('');
console.log('| service | binary (of it 2 MB pages) | V8 heap | other anonymous | other files | (idle; right after the load) |');
console.log('|---|---|---|---|---|---|');
for (const [when, b] of [
  ['idle', results.idleBreakdown],
  ['after', results.afterBreakdown],
]) {
  for (const name of Object.keys(procs))
    console.log(`| ${name} | ${b[name].binary} (${b[name].binaryHuge}) | ${b[name].heap} | ${b[name].otherAnonymous} | ${b[name].other} | ${when} |`);
}
const met = Object.keys(procs).every((name) => results.idle[name] < 100 && results.after[name] < 160);
console.log(met ? 'all targets met' : 'targets NOT met');
console.log(JSON.stringify(results));

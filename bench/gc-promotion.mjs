#!/usr/bin/env node
// Garbage-collector cost per request of the secrets service, endpoint by endpoint: the
// service runs with V8's --trace-gc-nvp, autocannon drives one endpoint at a time at 32
// connections, and each line sums the minor GCs (scavenges) of that phase: bytes allocated,
// survived and promoted to the old generation per request, and the mean scavenge pause.
// Request-scoped objects should die young: promoted bytes per request are what grows the old
// generation under load (resident memory) and what every scavenge copies (pauses, tail latency).
//
//   pnpm exec tsc -b && node_modules/.bin/node bench/gc-promotion.mjs [--phases share,bad,status,health,404] [--duration 6]
//     [--root <checkout>] [--node-flags '<flags>']
//
// Phases: share (POST /api/v1/share), bad (the same with a TTL that is not a number: 400), status
// (GET /api/v1/status with credentials), health (GET /healthz), 404 (an unknown API path),
// noauth (share without credentials: 401). RATE_LIMIT_MAX=0 in the environment turns the limiter off.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { admin, databaseUrl, healthy, nodeFlags as flagsOf, randomPort, redisUrl } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    phases: { type: 'string', default: 'share,bad,status,health,404' },
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '32' },
    root: { type: 'string', default: join(here, '..') },
    'node-flags': { type: 'string' },
  },
});
const root = resolve(args.root);
const serviceDir = join(root, 'services', 'secrets');
const nodeFlags = flagsOf(root, 'secrets', args['node-flags']);
const { runCli } = await import(pathToFileURL(join(serviceDir, 'dist', 'src', 'cli', 'cli.js')).href);
const dbName = `bench_gc_${randomBytes(4).toString('hex')}`;
const port = randomPort();
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  BASE_URL: base,
  DATABASE_URL: databaseUrl(dbName),
  REDIS_URL: redisUrl,
  REDIS_PREFIX: `bench:${dbName}:`,
  MASTER_KEY: randomBytes(32).toString('hex'),
  MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '1000000000',
};
const load = (opts) =>
  new Promise((res, rej) => autocannon({ connections: Number(args.connections), duration: Number(args.duration), ...opts }, (err, r) => (err ? rej(err) : res(r))));

await admin(`CREATE DATABASE "${dbName}"`);
let server;
let trace = '';
try {
  await runCli(['migrate', '--json'], env);
  const { api_token } = JSON.parse((await runCli(['tokens', 'create', 'bench', '--json'], env)).stdout);
  const headers = { authorization: `Basic ${Buffer.from(`bench:${api_token}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' };
  const body = new URLSearchParams({ secret: 'x'.repeat(64), ttl: '3600' }).toString();
  const phases = {
    share: { method: 'POST', url: `${base}/api/v1/share`, headers, body },
    bad: { method: 'POST', url: `${base}/api/v1/share`, headers, body: 'secret=abc&ttl=nonsense' },
    status: { method: 'GET', url: `${base}/api/v1/status`, headers },
    health: { method: 'GET', url: `${base}/healthz` },
    404: { method: 'GET', url: `${base}/api/v1/nothing-here`, headers },
    noauth: { method: 'POST', url: `${base}/api/v1/share`, headers: { 'content-type': headers['content-type'] }, body },
  };

  server = fork(join(serviceDir, 'dist', 'src', 'main.js'), [], { env, execArgv: [...nodeFlags, '--trace-gc-nvp'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  server.stdout.on('data', (d) => (trace += d));
  await healthy(base);
  await load({ ...phases.share, duration: 3 }); // warm-up: JIT, pools

  console.log(`GC per request of ${serviceDir} (Node ${process.version}, flags: ${nodeFlags.join(' ') || '-'}), ${args.connections} connections, ${args.duration} s per phase`);
  console.log('| phase | status | req/s | p99 ms | scavenges | mean pause ms | allocated KB/req | survived KB/req | promoted KB/req |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const name of args.phases.split(',')) {
    if (!phases[name]) throw new Error(`unknown phase ${name}`);
    const from = trace.length;
    const r = await load(phases[name]);
    const sums = { allocated: 0, new_space_survived: 0, promoted: 0, pause: 0 };
    const lines = trace
      .slice(from)
      .split('\n')
      .filter((l) => l.includes('gc=s '));
    for (const line of lines) for (const key of Object.keys(sums)) sums[key] += Number(new RegExp(` ${key}=([0-9.]+)`).exec(line)?.[1] ?? 0);
    const n = r.requests.total;
    const kb = (bytes) => (bytes / n / 1024).toFixed(2);
    const statuses = Object.keys(r.statusCodeStats ?? {}).join('/');
    console.log(
      `| ${name} | ${statuses} | ${Math.round(n / r.duration)} | ${r.latency.p99} | ${lines.length} | ${(sums.pause / Math.max(1, lines.length)).toFixed(1)} | ${kb(sums.allocated)} | ${kb(sums.new_space_survived)} | ${kb(sums.promoted)} |`,
    );
  }
} finally {
  if (server) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
}

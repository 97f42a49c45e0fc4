#!/usr/bin/env node
// Benchmark of the secrets API. Plain ESM so it runs without a compile step:
//
//   pnpm exec tsc -b && node_modules/.bin/node bench/secrets-api.mjs [--duration 10] [--connections 32]
//
// It creates a throw-away database, migrates it with the service's own CLI, starts the built
// service (services/secrets/dist) as a child process with an event-loop probe preloaded, and
// measures with autocannon over real HTTP against real PostgreSQL and Redis:
//   1. share without passphrase        (POST /api/v1/share, Basic auth)
//   2. read                             (POST /api/v1/secret/:key, each key read once)
//   3. share with passphrase            (bcrypt at the production cost, 12, in worker threads)
//   4. plain shares while passphrase shares run, and the server's event-loop delay meanwhile
// and, in the same run, the raw ceiling: the same INSERT and DELETE ... RETURNING statements
// through `pg` at the same concurrency, no HTTP; plus the bcrypt ceiling (cores / one hash).
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { admin, databaseUrl, healthy, nodeFlags as flagsOf, randomPort, redisUrl } from './common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    // Another checkout (built) to measure with this script: the comparison of bench/compare-secrets.sh.
    root: { type: 'string', default: join(here, '..') },
    // `share,read` skips the passphrase and mixed runs.
    only: { type: 'string' },
    // A CPU profile of the service (node --cpu-prof) written to this directory.
    profile: { type: 'string' },
    // The service's Node flags, instead of those of its start script (`--node-flags=` for none).
    'node-flags': { type: 'string' },
  },
});
const serviceDir = join(resolve(args.root), 'services', 'secrets');
const nodeFlags = flagsOf(resolve(args.root), 'secrets', args['node-flags']);
// bcryptjs as the service's bcrypt pool loads it (@hush/common), for the ceiling of one core.
const bcrypt = createRequire(join(resolve(args.root), 'packages', 'common', 'package.json'))('bcryptjs');
const { runCli } = await import(pathToFileURL(join(serviceDir, 'dist', 'src', 'cli', 'cli.js')).href);

const only = args.only ? new Set(args.only.split(',')) : undefined;
const wanted = (scenario) => !only || only.has(scenario);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const CORES = availableParallelism();
const SECRET = 'x'.repeat(64); // a typical credential-sized secret

const dbName = `bench_secrets_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const dbUrl = databaseUrl(dbName);
const port = randomPort();
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  BASE_URL: base,
  DATABASE_URL: dbUrl,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
  MASTER_KEY: randomBytes(32).toString('hex'),
  MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  // The limiter stays on (its Redis round trip is part of the cost) but never trips.
  RATE_LIMIT_MAX: process.env.BENCH_RATE_LIMIT_MAX ?? '1000000000',
};

function run(opts) {
  return new Promise((resolve, reject) => {
    const { path, ...rest } = opts;
    const options = { url: `${base}${path ?? ''}`, connections: CONNECTIONS, ...(opts.amount ? {} : { duration: DURATION }), ...rest };
    const instance = autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const summary = (r) => ({
  rps: Math.round(r.requests.total / r.duration),
  p50: r.latency.p50,
  p99: r.latency.p99,
  total: r.requests.total,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  statuses: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, v.count])),
});

/** CPU seconds (user + system) the service process has used so far, from /proc (Linux; 0 elsewhere). */
function serverCpu() {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

async function probe(message) {
  server.send(message);
  if (message !== 'report') return undefined;
  const [report] = await once(server, 'message');
  return report;
}

// ---- set up -----------------------------------------------------------------------------
await admin(`CREATE DATABASE "${dbName}"`);
let server;
const results = {};
try {
  const migrated = await runCli(['migrate', '--json'], env);
  if (migrated.code !== 0) throw new Error(migrated.stderr);
  const minted = JSON.parse((await runCli(['tokens', 'create', 'bench', '--json'], env)).stdout);
  const auth = `Basic ${Buffer.from(`bench:${minted.api_token}`).toString('base64')}`;

  server = fork(join(serviceDir, 'dist', 'src', 'main.js'), [], {
    env,
    execArgv: [
      ...nodeFlags,
      '--import',
      pathToFileURL(join(here, 'secrets-api', 'loop-probe.mjs')).href,
      ...(args.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(args.profile)] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await healthy(base);

  const headers = { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' };
  const shareBody = new URLSearchParams({ secret: SECRET, ttl: '3600' }).toString();

  // Warm-up: JIT, connection pools, JWKS-free paths.
  await autocannon({ url: `${base}/api/v1/share`, connections: 8, amount: 2000, method: 'POST', headers, body: shareBody });

  // ---- 1. share ---------------------------------------------------------------------------
  const keys = [];
  let cpu = serverCpu();
  const share = await run({
    requests: [
      {
        method: 'POST',
        path: '/api/v1/share',
        headers,
        body: shareBody,
        onResponse: (status, body) => {
          if (status === 200) keys.push(JSON.parse(body).secret_key);
        },
      },
    ],
  });
  results.share = { ...summary(share), cpuUs: Math.round(((serverCpu() - cpu) * 1e6) / share.requests.total) };
  cpu = serverCpu();

  // ---- 2. read (every key once) -----------------------------------------------------------
  let next = 0;
  const read = await run({
    amount: keys.length,
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `/api/v1/secret/${keys[next++]}` }) }],
  });
  results.read = { ...summary(read), cpuUs: Math.round(((serverCpu() - cpu) * 1e6) / read.requests.total) };

  // ---- 3. share with passphrase at cost 12 ------------------------------------------------
  if (wanted('passphrase')) await passphraseRuns();
  async function passphraseRuns() {
    const t0 = process.hrtime.bigint();
    const HASHES = 4;
    for (let i = 0; i < HASHES; i++) bcrypt.hashSync('a-passphrase', 12);
    const hashMs = Number(process.hrtime.bigint() - t0) / 1e6 / HASHES;
    const bcryptCeiling = CORES / (hashMs / 1000);
    const passBody = new URLSearchParams({ secret: SECRET, ttl: '3600', passphrase: 'correct horse battery staple' }).toString();
    const passphrase = await run({ method: 'POST', path: '/api/v1/share', headers, body: passBody });
    results.passphrase = { ...summary(passphrase), rpsExact: passphrase.requests.total / passphrase.duration, hashMs, bcryptCeiling };

    // ---- 4. plain requests while passphrase requests run; server event-loop delay -------------
    // Let the bcrypt queue left by run 3 drain, then keep every worker busy (2 requests per core).
    await new Promise((r) => setTimeout(r, Math.ceil((CONNECTIONS * hashMs) / CORES) + 1000));
    await probe('reset');
    const [busy, plain] = await Promise.all([
      run({ connections: 2 * CORES, method: 'POST', path: '/api/v1/share', headers, body: passBody }),
      run({ connections: 8, method: 'POST', path: '/api/v1/share', headers, body: shareBody }),
    ]);
    const loop = await probe('report');
    results.mixed = { passphrase: summary(busy), plain: summary(plain), loop };
  }

  // ---- 5. raw ceiling: the same statements through pg, same concurrency, no HTTP -----------
  server.kill('SIGTERM');
  await once(server, 'exit');
  server = undefined;
  results.raw = await rawCeiling(dbUrl);
} finally {
  if (server) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
}

async function rawCeiling(url) {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  pool.on('error', () => undefined); // idle clients killed by the final DROP DATABASE
  const ciphertext = randomBytes(1 + 12 + 16 + SECRET.length);
  const insertSql = `WITH m AS (
      INSERT INTO metadata (metadata_hash, metadata_shortkey, custid, ttl, passphrase_required, recipient_obfuscated, secret_key_sealed, secret_expires_at, expires_at)
      VALUES ($1, $2, $3, $4, false, NULL, $5, now() + make_interval(secs => $8), now() + make_interval(secs => $9))
      RETURNING metadata_hash, secret_expires_at)
    INSERT INTO secrets (secret_hash, metadata_hash, ciphertext, passphrase_hash, expires_at)
    SELECT $6, m.metadata_hash, $7, NULL, m.secret_expires_at FROM m RETURNING created_at`;
  const claimSql = `WITH s AS (
      DELETE FROM secrets WHERE secret_hash = $1 AND expires_at > now() AND passphrase_hash IS NULL RETURNING metadata_hash, ciphertext),
    m AS (UPDATE metadata SET state = 'received', received_at = now(), updated_at = now(), secret_key_sealed = NULL
      FROM s WHERE metadata.metadata_hash = s.metadata_hash RETURNING metadata.metadata_hash)
    SELECT s.ciphertext FROM s`;
  const hashes = [];
  const loop = async (deadline, work) => {
    const latencies = [];
    while (performance.now() < deadline) {
      const t = performance.now();
      if (!(await work())) break;
      latencies.push(performance.now() - t);
    }
    return latencies;
  };
  const measure = async (work) => {
    const start = performance.now();
    const all = (await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(start + DURATION * 1000, work)))).flat();
    const seconds = (performance.now() - start) / 1000;
    all.sort((a, b) => a - b);
    return { rps: Math.round(all.length / seconds), p50: +all[Math.floor(all.length * 0.5)].toFixed(2), p99: +all[Math.floor(all.length * 0.99)].toFixed(2), total: all.length };
  };
  const insert = await measure(async () => {
    const secretHash = randomBytes(32);
    const metadataHash = randomBytes(32);
    await pool.query(insertSql, [metadataHash, 'abcdef', 'bench', 3600, randomBytes(60), secretHash, ciphertext, 3600, 7200]);
    hashes.push(secretHash);
    return true;
  });
  let i = 0;
  const claim = await measure(async () => {
    if (i >= hashes.length) return false;
    const { rows } = await pool.query(claimSql, [hashes[i++]]);
    if (rows.length !== 1) throw new Error('raw claim lost a row');
    return true;
  });
  await pool.end();
  return { insert, claim };
}

// ---- report ------------------------------------------------------------------------------
const pct = (a, b) => `${Math.round((100 * a) / b)}%`;
const lines = [
  `secrets-api benchmark of ${serviceDir}: ${CORES} cores, ${CONNECTIONS} connections, ${DURATION} s per run, Node ${process.version}`,
  '',
  `| scenario | req/s | p50 ms | p99 ms | raw pg req/s | ratio to raw | errors/non-2xx | service CPU µs/req |`,
  `|---|---|---|---|---|---|---|---|`,
  `| share (no passphrase) | ${results.share.rps} | ${results.share.p50} | ${results.share.p99} | ${results.raw.insert.rps} (p99 ${results.raw.insert.p99}) | ${pct(results.share.rps, results.raw.insert.rps)} | ${results.share.errors}/${results.share.non2xx} | ${results.share.cpuUs} |`,
  `| read (one-time) | ${results.read.rps} | ${results.read.p50} | ${results.read.p99} | ${results.raw.claim.rps} (p99 ${results.raw.claim.p99}) | ${pct(results.read.rps, results.raw.claim.rps)} | ${results.read.errors}/${results.read.non2xx} | ${results.read.cpuUs} |`,
  ...(results.passphrase
    ? [
        `| share with passphrase (bcrypt 12) | ${results.passphrase.rpsExact.toFixed(1)} | ${results.passphrase.p50} | ${results.passphrase.p99} | bcrypt ceiling ${results.passphrase.bcryptCeiling.toFixed(1)} (${CORES} cores / ${results.passphrase.hashMs.toFixed(0)} ms) | ${pct(results.passphrase.rpsExact, results.passphrase.bcryptCeiling)} | ${results.passphrase.errors}/${results.passphrase.non2xx} |`,
        `| plain share during passphrase load | ${results.mixed.plain.rps} | ${results.mixed.plain.p50} | ${results.mixed.plain.p99} | | | ${results.mixed.plain.errors}/${results.mixed.plain.non2xx} |`,
        '',
        `Server event-loop delay during the mixed run: p50 ${results.mixed.loop.p50.toFixed(2)} ms, p99 ${results.mixed.loop.p99.toFixed(2)} ms, max ${results.mixed.loop.max.toFixed(2)} ms (passphrase shares meanwhile: ${(results.mixed.passphrase.total / DURATION).toFixed(1)} req/s).`,
      ]
    : []),
];
console.log(lines.join('\n'));
console.log(JSON.stringify(results));

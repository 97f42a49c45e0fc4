#!/usr/bin/env node
// Zero-knowledge secrets against today's mode, in one run (docs/zero-knowledge.md). Plain ESM:
//
//   pnpm exec tsc -b && node_modules/.bin/node bench/zero-knowledge.mjs [--duration 10] [--connections 32] [--rounds 2]
//
// It starts the built secrets service (services/secrets/dist) on a throw-away database, as
// bench/secrets-api.mjs does, and measures with autocannon over real HTTP, real PostgreSQL and Redis:
//   - share: POST /api/v1/share (the service encrypts a 64-character secret) against
//     POST /api/v1/zk/share (the client's envelope of the same secret and its key verifier);
//   - read: POST /api/v1/secret/:key against POST /api/v1/zk/secret/:key with the key proof,
//     each key read once.
// The client's encryption is done once, before the runs (it is the browser's or the CLI's work,
// not the service's): every zero-knowledge share sends the same envelope and verifier, every read
// the same proof, which costs the service exactly what distinct ones would. Rounds alternate the
// order of the two modes, so a machine that slows down during the run penalises neither; the
// ratios are zero-knowledge over today's mode, each the mean of the rounds.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { withSecretsService } from './secrets-service.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    root: { type: 'string', default: join(here, '..') },
  },
});
const root = resolve(args.root);
const zk = await import(pathToFileURL(join(root, 'packages', 'zk', 'dist', 'index.js')).href);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const SECRET = 'x'.repeat(64);

function run(base, opts) {
  return new Promise((done, fail) => {
    const instance = autocannon({ url: base, connections: CONNECTIONS, ...(opts.amount ? {} : { duration: DURATION }), ...opts }, (err, result) =>
      err ? fail(err) : done(result),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}
const summary = (r) => ({ rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, bad: r.non2xx + r.errors + r.timeouts });

const rounds = await withSecretsService(root, {}, async ({ base, auth }) => {
  // The client's side, once: a fresh key, its keys, the envelope of the secret.
  const key = zk.zkRandom(32);
  const keys = await zk.zkKeys(key);
  const envelope = zk.zkEncode(await zk.zkSealHeader(keys, { text: SECRET }, zk.zkRandom(12)));
  const modes = {
    classic: {
      share: {
        path: '/api/v1/share',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: SECRET, ttl: '3600' }).toString(),
      },
      read: { path: (k) => `/api/v1/secret/${k}`, headers: {}, body: undefined },
    },
    zk: {
      share: {
        path: '/api/v1/zk/share',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ envelope, key_verifier: keys.keyVerifier, ttl: 3600 }),
      },
      read: { path: (k) => `/api/v1/zk/secret/${k}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key_proof: zk.zkEncode(keys.keyProof) }) },
    },
  };

  // Warm-up of both paths (JIT, pools).
  for (const mode of Object.values(modes))
    await autocannon({ url: `${base}${mode.share.path}`, connections: 8, amount: 1000, method: 'POST', headers: mode.share.headers, body: mode.share.body });

  async function measure(name) {
    const mode = modes[name];
    const keysOf = [];
    const share = await run(base, {
      requests: [
        { method: 'POST', path: mode.share.path, headers: mode.share.headers, body: mode.share.body, onResponse: (s, b) => s === 200 && keysOf.push(JSON.parse(b).secret_key) },
      ],
    });
    let next = 0;
    const read = await run(base, {
      amount: keysOf.length,
      requests: [{ method: 'POST', headers: mode.read.headers, body: mode.read.body, setupRequest: (req) => ({ ...req, path: mode.read.path(keysOf[next++]) }) }],
    });
    return { share: summary(share), read: summary(read) };
  }

  const measured = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ['classic', 'zk'] : ['zk', 'classic'];
    const round = {};
    for (const name of order) round[name] = await measure(name);
    measured.push(round);
  }
  return measured;
});

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const lines = [
  `zero-knowledge benchmark: ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION} s per share run, Node ${process.version}`,
  '',
  '| round | operation | today req/s (p99 ms) | zero-knowledge req/s (p99 ms) | ratio zk/today | failed |',
  '|---|---|---|---|---|---|',
];
for (const [i, round] of rounds.entries()) {
  for (const op of ['share', 'read']) {
    const c = round.classic[op];
    const z = round.zk[op];
    lines.push(`| ${i + 1} | ${op} | ${c.rps.toFixed(0)} (${c.p99}) | ${z.rps.toFixed(0)} (${z.p99}) | ${(z.rps / c.rps).toFixed(2)} | ${c.bad + z.bad} |`);
  }
}
for (const op of ['share', 'read']) lines.push(`| mean | ${op} | | | ${mean(rounds.map((r) => r.zk[op].rps / r.classic[op].rps)).toFixed(2)} | |`);
console.log(lines.join('\n'));
console.log(JSON.stringify(rounds));

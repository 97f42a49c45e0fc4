#!/usr/bin/env node
// A long run at a steady mixed load: identity, the secrets service and the mailer, started as
// bench/memory.mjs starts them (built entry points, their start scripts' Node flags, throw-away
// databases and prefixes), with the mailer sending to an SMTP sink in this process. Every
// --interval seconds it records, per service, resident memory (/proc), V8 heap used and total,
// event-loop delay p99 and open handles (the services' own /metrics on their management ports),
// and the PostgreSQL connections of each database; at the end, how each moved between the first
// sample after --warmup and the last: flat, or growing per request.
//
//   npx tsc -b && node_modules/.bin/node bench/soak.mjs [--minutes 30] [--interval 60] [--warmup 3] [--rate 1] [--root <checkout>]
//
// Load per second at --rate 1: 40 client-credentials tokens, 40 shares (one in ten to a recipient,
// so 4 e-mails), 36 reads of those secrets, one sign-in through the browser flow (bcrypt cost 4
// for the sign-in users, as in bench/scale.mjs). A short run to see it works:
// `--minutes 3 --interval 20 --warmup 1`.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { databaseUrl } from './common.mjs';
import { browserSignIn, cannon, form } from './scale/load.mjs';
import { LOGIN_PASSWORD, prepare, stack } from './scale/services.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    interval: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '3' },
    rate: { type: 'string', default: '1' },
    root: { type: 'string', default: join(here, '..') },
  },
});
const root = resolve(args.root);
const SECONDS = Math.round(Number(args.minutes) * 60);
const INTERVAL = Number(args.interval);
const WARMUP = Number(args.warmup) * 60;
const RATE = Number(args.rate);
const tag = `soak_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const log = (m) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

// The SMTP sink: accepts everything, keeps a count.
let mails = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      mails++;
      callback();
    });
  },
});
smtp.listen(0, '127.0.0.1');
await once(smtp.server, 'listening');
const smtpUrl = `smtp://127.0.0.1:${smtp.server.address().port}`;

const s = stack(root, tag, { identity: { PASSWORD_HASH_COST: '4', SMTP_URL: smtpUrl }, mailer: { SMTP_URL: smtpUrl } });
const procs = {};
const samples = [];
await s.create();
try {
  const { auth, ccClient: cc, webClient: web, users } = await prepare(s, 'soak');
  for (const service of ['identity', 'secrets', 'mailer']) procs[service] = await s.start(service);

  const FORM = 'application/x-www-form-urlencoded';
  const keys = [];
  const steady = (rate, opts) => cannon({ connections: Math.max(1, Math.ceil(rate / 20)), overallRate: rate * RATE, duration: SECONDS, ...opts });
  const load = Promise.all([
    steady(40, {
      url: `${s.issuer}/protocol/openid-connect/token`,
      method: 'POST',
      headers: { 'content-type': FORM },
      body: form({ grant_type: 'client_credentials', client_id: cc.client_id, client_secret: cc.client_secret, scope: 'bench:read' }),
    }),
    steady(36, {
      url: s.base,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/share',
          headers: { authorization: auth, 'content-type': FORM },
          body: form({ secret: 'x'.repeat(64), ttl: '3600' }),
          onResponse: (st, b) => st === 200 && keys.push(JSON.parse(b).secret_key),
        },
      ],
    }),
    steady(4, {
      url: s.base,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/share',
          headers: { authorization: auth, 'content-type': FORM },
          body: form({ secret: 'x'.repeat(64), ttl: '3600', recipient: 'soak@bench.example.com' }),
        },
      ],
    }),
    steady(36, { url: s.base, requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `/api/v1/secret/${keys.shift() ?? 'n0keys0left0000000000000000000'}` }) }] }),
    signIns(),
  ]);
  // One sign-in at a time, one a second at --rate 1.
  async function signIns() {
    const signIn = await browserSignIn(root, s.issuer, web, LOGIN_PASSWORD);
    const deadline = performance.now() + SECONDS * 1000;
    let total = 0;
    let failures = 0;
    while (performance.now() < deadline) {
      const t = performance.now();
      await signIn(users[total++ % users.length]).catch(() => failures++);
      await new Promise((res) => setTimeout(res, Math.max(0, 1000 / RATE - (performance.now() - t))));
    }
    return { total, failures };
  }

  const started = performance.now();
  const sampler = setInterval(() => void sample((performance.now() - started) / 1000).catch((err) => log(`sample failed: ${err.message}`)), INTERVAL * 1000);
  await sample(0);
  const [tokens, shares, mailShares, reads, signin] = await load;
  clearInterval(sampler);
  const end = (performance.now() - started) / 1000;
  if (end - samples[samples.length - 1].minute * 60 > INTERVAL / 4) await sample(end);
  report({ tokens, shares, mailShares, reads, signin });
} finally {
  for (const p of Object.values(procs)) await p.stop();
  await s.drop();
  smtp.close();
}

async function metricsOf(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    heapUsed: value('nodejs_heap_size_used_bytes') / 2 ** 20,
    heapTotal: value('nodejs_heap_size_total_bytes') / 2 ** 20,
    lagP99: value('nodejs_eventloop_lag_p99_seconds') * 1000,
    handles: value('nodejs_active_handles_total'),
  };
}

async function sample(at) {
  const row = { minute: +(at / 60).toFixed(1), mails };
  const ports = { identity: s.ports.identityManagement, secrets: s.ports.secretsManagement, mailer: s.ports.mailer };
  for (const [name, p] of Object.entries(procs)) {
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))[1]) / 1024;
    row[name] = { rss, ...(await metricsOf(ports[name])) };
  }
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT datname, count(*)::int AS n FROM pg_stat_activity WHERE datname = ANY($1) GROUP BY datname`, [Object.values(s.databases)]);
    row.connections = Object.fromEntries(Object.entries(s.databases).map(([k, db]) => [k, rows.find((r) => r.datname === db)?.n ?? 0]));
  } finally {
    await client.end();
  }
  samples.push(row);
  log(`${row.minute} min: ${['identity', 'secrets', 'mailer'].map((n) => `${n} ${row[n].rss.toFixed(0)} MB`).join(', ')}, ${mails} e-mails`);
}

function report(totals) {
  const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '–');
  console.log(`soak of ${root}: ${args.minutes} min at --rate ${RATE}, a sample every ${INTERVAL} s, Node ${process.version}`);
  console.log('| min | identity RSS / heap used / heap total MB, lag p99 ms, handles | secrets (same) | mailer (same) | PG connections identity / secrets | e-mails |');
  console.log('|---|---|---|---|---|---|');
  const svc = (x) => `${f(x.rss)} / ${f(x.heapUsed)} / ${f(x.heapTotal)}, ${f(x.lagP99, 1)}, ${f(x.handles)}`;
  for (const r of samples)
    console.log(`| ${r.minute} | ${svc(r.identity)} | ${svc(r.secrets)} | ${svc(r.mailer)} | ${r.connections.identity} / ${r.connections.secrets} | ${r.mails} |`);
  const after = samples.find((r) => r.minute * 60 >= WARMUP) ?? samples[0];
  const last = samples[samples.length - 1];
  console.log('');
  console.log(`From minute ${after.minute} (after the warm-up) to minute ${last.minute}:`);
  for (const name of ['identity', 'secrets', 'mailer']) {
    const d = (k) => last[name][k] - after[name][k];
    console.log(`- ${name}: RSS ${f(d('rss'), 1)} MB, heap used ${f(d('heapUsed'), 1)} MB, handles ${f(d('handles'))}`);
  }
  console.log(`- PostgreSQL connections: identity ${last.connections.identity - after.connections.identity}, secrets ${last.connections.secrets - after.connections.secrets}`);
  const t = (x) => `${x.total} (${x.non2xx ?? 0} non-2xx, ${x.errors ?? x.failures ?? 0} errors)`;
  console.log(
    `Requests: tokens ${t(totals.tokens)}, shares ${t(totals.shares)}, shares with an e-mail ${t(totals.mailShares)}, reads ${t(totals.reads)}, sign-ins ${totals.signin.total} (${totals.signin.failures} failed); e-mails received ${mails}`,
  );
  console.log(JSON.stringify({ samples, totals }));
}

#!/usr/bin/env node
// Costs as the data grows: identity and the secrets service measured on a database filled tier by
// tier with set-based SQL (bench/scale/seed-*.mjs: secrets live and expired, receipts, requests,
// API tokens, accounts; users, clients, organizations, role mappings, events, sessions, grants,
// refresh tokens) against the same measurement on a baseline database, in the same run and
// alternated (baseline, full, full, baseline, ... for --rounds rounds: on a shared machine
// throughput drifts by 2x from one minute to the next, so one measurement of each tells little).
// The baseline holds the --baseline tier (1k by default; `empty` for nothing): enough rows that a
// search or a list answers a full page there too, so both sides do the same work apart from
// finding the rows. Each figure is the median of its rounds; the ratio full / baseline is the
// median of the rounds' ratios (the two sides of a round ran a minute apart, under the same load).
//
//   npx tsc -b && node_modules/.bin/node bench/scale.mjs [--tiers 1k,1M,10M] [--rounds 3] [--duration 10]
//     [--connections 32] [--list 100000] [--sweep 1000000] [--only secrets|identity] [--keep] [--reuse <tag>]
//     [--baseline 1k|empty] [--seed-only] [--report <results.json,...>] [--root <checkout>]
//
// Tiers (each adds to the one before):   secrets  users  clients  events
//   1k                                      1,000  1,000      100  10,000
//   1M                                  1,000,000 100,000  10,000  1,000,000
//   10M                                10,000,000 100,000  10,000  10,000,000
// Per tier: share and read (32 connections: shares for --duration, then every key read once);
// client-credentials tokens; the admin API's user search and lists, client list and search, event
// queries; sign-ins through the browser flow (8 at a time; the sign-in users' bcrypt cost is 4 on
// both databases, so what differs is the lookups). After the last tier: --list (an account with
// that many live secrets listed page by page against an account with 100), then --sweep (that many
// expired secrets added while the service is down; share and read p99 in windows with the sweeper
// off and on, alternated, then on until every expired secret is gone). --list 0 / --sweep 0 skip
// them. A small run: `--tiers 1k --baseline empty --rounds 1 --duration 3 --list 10000 --sweep 10000`.
// --keep leaves both databases and writes what a later run needs to a file in the temporary
// directory; --reuse <tag> measures on them again (after migrating them to the checkout's
// schema), seeding only the tiers they lack: one 10M seeding, measured before and after a change;
// --seed-only seeds (and keeps) without measuring.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import pg from 'pg';
import { databaseUrl } from './common.mjs';
import { seedAccount, seedExpired, seedSecrets, settle } from './scale/seed-secrets.mjs';
import { seedIdentity, settleIdentity } from './scale/seed-identity.mjs';
import { LOGIN_PASSWORD, prepare, stack } from './scale/services.mjs';
import { adminToken, gets, logins, reads, shares, tokens, walk } from './scale/load.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    tiers: { type: 'string', default: '1k' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    list: { type: 'string', default: '100000' },
    sweep: { type: 'string', default: '1000000' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    report: { type: 'string' },
    baseline: { type: 'string', default: '1k' },
    'seed-only': { type: 'boolean', default: false },
    root: { type: 'string', default: join(here, '..') },
  },
});
const TIERS = {
  '1k': { secrets: 1_000, users: 1_000, clients: 100, events: 10_000 },
  '100k': { secrets: 100_000, users: 10_000, clients: 1_000, events: 100_000 },
  '1M': { secrets: 1_000_000, users: 100_000, clients: 10_000, events: 1_000_000 },
  '10M': { secrets: 10_000_000, users: 100_000, clients: 10_000, events: 10_000_000 },
};
const tiers = args.tiers.split(',').filter((t) => t !== 'empty');
for (const t of tiers) if (!TIERS[t]) throw new Error(`unknown tier ${t} (${Object.keys(TIERS).join(', ')})`);
if (args.baseline !== 'empty' && !TIERS[args.baseline]) throw new Error(`unknown baseline ${args.baseline} (empty, ${Object.keys(TIERS).join(', ')})`);
/** What the baseline database holds: nothing, or a small tier, so that a search or a list answers a full page on both. */
const BASE = TIERS[args.baseline] ?? { secrets: 0, users: 0, clients: 0, events: 0 };
const root = resolve(args.root);
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const LIST = Number(args.list);
const SWEEP = Number(args.sweep);
const want = (service) => !args.only || args.only === service;
const tag = args.reuse ?? `scale_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const stateFile = join(os.tmpdir(), `hush-${tag}.json`);
const started = performance.now();
const log = (m) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m} (load ${os.loadavg()[0].toFixed(1)})`);

// Two stacks: one stays empty, one is filled; both hold what the bench itself uses.
const saved = args.reuse ? JSON.parse(readFileSync(stateFile, 'utf8')) : undefined;
const stacks = { empty: stack(root, `${tag}_e`, { identity: { PASSWORD_HASH_COST: '4' } }), full: stack(root, `${tag}_f`, { identity: { PASSWORD_HASH_COST: '4' } }) };
const KEPT = ['MASTER_KEY', 'MAIL_SEALING_KEY', 'ADMIN_CLIENT_SECRET'];
if (saved) {
  for (const which of ['empty', 'full'])
    for (const service of ['identity', 'secrets'])
      for (const k of KEPT) if (saved.env[which][service][k] !== undefined) stacks[which].env[service][k] = saved.env[which][service][k];
}
const sql = async (which, service, fn) => {
  const client = new pg.Client({ connectionString: databaseUrl(stacks[which].databases[service]) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};
const basic = (custid, token) => `Basic ${Buffer.from(`${custid}:${token}`).toString('base64')}`;
const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** results[name][tier] = { empty: [run, ...], full: [run, ...] }; phases (listing, sweep) use their own keys. */
const results = {};
const loads = {};
const resultsFile = join(os.tmpdir(), `hush-${tag}-results-${Date.now().toString(36)}.json`);
const record = (name, tier, which, value) => {
  (results[name] ??= {})[tier] ??= {};
  (results[name][tier][which] ??= []).push({ ...value, load: +os.loadavg()[0].toFixed(1) });
  (loads[tier] ??= []).push(os.loadavg()[0]);
  writeFileSync(resultsFile, JSON.stringify({ results, loads }));
};
/** The services this run started and has not stopped yet: stopped on SIGINT and SIGTERM. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, async () => {
    for (const r of running) await r.stop();
    log(`stopped; databases kept: --reuse ${tag}; results so far: --report ${resultsFile}`);
    process.exit(1);
  });
/** The order of the two databases in round `r`: empty first, then full first, and so on. */
const order = (r) => (r % 2 === 0 ? ['empty', 'full'] : ['full', 'empty']);

if (args.report) {
  // Several runs' files (comma-separated): a tier measured again replaces the earlier figures.
  for (const file of args.report.split(',')) {
    const earlier = JSON.parse(readFileSync(file, 'utf8'));
    for (const [name, byTier] of Object.entries(earlier.results)) Object.assign((results[name] ??= {}), byTier);
    Object.assign(loads, earlier.loads);
  }
  report();
  process.exit(0);
}
let bench = saved?.bench;
const nothing = () => ({ secrets: { secrets: 0, receipts: 0, requests: 0, accounts: 0 }, identity: { users: 0, clients: 0, events: 0, organizations: 0 } });
let have = saved?.have ?? nothing();
let haveBase = saved?.haveBase ?? nothing();
let keep = args.keep || Boolean(args.reuse);

if (!saved) {
  await stacks.empty.create();
  await stacks.full.create();
  bench = { empty: await prepare(stacks.empty, 'bench'), full: await prepare(stacks.full, 'bench') };
} else {
  // The checkout may add migrations since the databases were kept.
  for (const which of ['empty', 'full']) {
    await stacks[which].cli('secrets', 'migrate');
    await stacks[which].cli('identity', 'migrate');
  }
}
const saveState = () =>
  writeFileSync(
    stateFile,
    JSON.stringify({
      tag,
      have,
      haveBase,
      bench,
      tier: saved?.tier,
      env: Object.fromEntries(
        Object.entries(stacks).map(([w, s]) => [w, Object.fromEntries(['identity', 'secrets'].map((sv) => [sv, Object.fromEntries(KEPT.map((k) => [k, s.env[sv][k]]))]))]),
      ),
    }),
    { mode: 0o600 },
  );
saveState();
try {
  if (want('secrets') && haveBase.secrets.secrets < BASE.secrets)
    haveBase.secrets = await sql('empty', 'secrets', (c) => seedSecrets(c, { secrets: BASE.secrets, have: haveBase.secrets, tag: `${tag}base`, log }));
  if (want('identity') && haveBase.identity.events < BASE.events)
    haveBase.identity = await sql('empty', 'identity', (c) => seedIdentity(c, { ...BASE, have: haveBase.identity, tag: 'base', log }));
  saveState();
  for (const tier of tiers) {
    const size = TIERS[tier];
    const t0 = performance.now();
    if (want('secrets') && have.secrets.secrets < size.secrets)
      have.secrets = await sql('full', 'secrets', (c) => seedSecrets(c, { secrets: size.secrets, have: have.secrets, tag: `${tag}${tier}`, log }));
    if (want('identity') && have.identity.events < size.events)
      have.identity = await sql('full', 'identity', (c) => seedIdentity(c, { ...size, have: have.identity, tag: `${tier}`, log }));
    saveState();
    log(`${tier}: seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    if (args['seed-only']) continue;
    for (const which of ['empty', 'full']) {
      if (want('secrets')) await sql(which, 'secrets', settle);
      if (want('identity')) await sql(which, 'identity', settleIdentity);
    }
    log(`${tier}: settled`);
    record('database size', tier, 'full', await databaseSizes('full'));
    if (want('secrets')) await measureSecrets(tier);
    if (want('identity')) await measureIdentity(tier, size);
  }
  if (args['seed-only']) keep = true;
  else {
    if (want('secrets') && LIST > 0) await measureListing();
    if (want('secrets') && SWEEP > 0) await measureSweep();
  }
} catch (err) {
  keep = true;
  console.error(err);
  process.exitCode = 1;
} finally {
  if (!keep) {
    await stacks.empty.drop();
    await stacks.full.drop();
  } else log(`kept databases ${[stacks.empty, stacks.full].flatMap((s) => Object.values(s.databases)).join(', ')}; --reuse ${tag}`);
}
report();

async function databaseSizes(which) {
  const out = {};
  for (const service of Object.keys(stacks[which].databases)) {
    out[service] = await sql(which, service, async (c) => (await c.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)).rows[0].size);
  }
  return out;
}

/** Both databases' instances of `service`, started; stopped once `fn` settles. */
async function withBoth(service, fn) {
  const both = [];
  try {
    for (const which of ['empty', 'full']) both.push(await start(stacks[which], service));
    return await fn();
  } finally {
    for (const r of both) await r.stop();
  }
}

/** A service of `s`, started (with `extraEnv`), stopped with the run if it is interrupted. */
async function start(s, service, extraEnv) {
  const r = await s.start(service, extraEnv);
  running.add(r);
  return {
    async stop() {
      running.delete(r);
      await r.stop();
    },
  };
}

async function measureSecrets(tier) {
  await withBoth('secrets', async () => {
    for (const which of ['empty', 'full']) await shares(stacks[which].base, bench[which].auth, { seconds: 2, connections: 8 }); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of order(r)) {
        const keys = [];
        record('secrets: share', tier, which, await shares(stacks[which].base, bench[which].auth, { seconds: SECONDS, connections: CONNECTIONS, keys }));
        record('secrets: read', tier, which, await reads(stacks[which].base, keys, { connections: CONNECTIONS }));
      }
    }
    log(`${tier}: secrets measured`);
  });
}

async function measureIdentity(tier, size) {
  await withBoth('identity', async () => {
    const queries = {};
    // The admin API's access token of each database, fetched again before it could expire.
    const tokenOf = {};
    const headers = async (which) => {
      const s = stacks[which];
      if (!tokenOf[which] || performance.now() - tokenOf[which].at > 30_000)
        tokenOf[which] = { at: performance.now(), value: { authorization: `Bearer ${await adminToken(s.issuer, s.env.identity.ADMIN_CLIENT_SECRET)}` } };
      return tokenOf[which].value;
    };
    for (const which of ['empty', 'full']) {
      const n = which === 'full' ? size : BASE;
      // A user and a client of the seeded ones, far from the busiest (a tenth of the way down the skew).
      const { user, client } = await sql(which, 'identity', async (c) => ({
        user: (await c.query(`SELECT id, username FROM users WHERE username ~ ('\\.' || $1 || '$')`, [Math.max(1, Math.floor(n.users / 10))])).rows[0] ?? {
          id: '00000000-0000-4000-8000-000000000000',
          username: 'nobody',
        },
        client: (await c.query(`SELECT client_id FROM clients ORDER BY created_at DESC, client_id LIMIT 1 OFFSET $1`, [Math.floor(n.clients / 10)])).rows[0]?.client_id ?? 'none',
      }));
      queries[which] = {
        'admin: users, search "garcia" (max 20)': `/users?search=garcia&max=20`,
        'admin: users, search one user (max 20)': `/users?search=${user.username}&max=20`,
        'admin: users, exact username': `/users?username=bench-login-3&exact=true`,
        'admin: users, first page (20)': `/users?first=0&max=20`,
        'admin: users, a jump to the middle (20, by offset)': `/users?first=${Math.floor(n.users / 2)}&max=20`,
        'admin: users, count': `/users/count`,
        'admin: clients, first page (20)': `/clients?first=0&max=20`,
        'admin: clients, search (max 20)': `/clients?clientId=99&search=true&max=20`,
        'admin: events, newest 100': `/events?max=100`,
        'admin: events of one user': `/events?user=${user.id}&max=100`,
        'admin: events of one client': `/events?client=${client}&max=100`,
        'admin: events, LOGIN_ERROR': `/events?type=LOGIN_ERROR&max=100`,
        'admin: admin events, newest 100': `/admin-events?max=100`,
      };
    }
    for (const which of ['empty', 'full']) await tokens(stacks[which].issuer, bench[which].ccClient, { seconds: 2, connections: CONNECTIONS }); // warm-up (tokens() warms up too)
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of order(r)) {
        record('identity: token (client credentials)', tier, which, await tokens(stacks[which].issuer, bench[which].ccClient, { seconds: SECONDS, connections: CONNECTIONS }));
      }
      for (const name of Object.keys(queries.empty)) {
        for (const which of order(r)) {
          record(
            name,
            tier,
            which,
            await gets(stacks[which].auth, [`/auth/admin/realms/public${queries[which][name]}`], { seconds: Math.max(2, SECONDS / 3), headers: await headers(which) }),
          );
        }
      }
      for (const which of order(r)) {
        const s = stacks[which];
        const pages = async (path, from, n) =>
          walk(s.auth, (first) => `/auth/admin/realms/public${path}first=${first}&max=${n}`, { from, size: n, pages: 51, headers: await headers(which) });
        record('admin: users, paging on from the middle (one client, 50 pages of 20)', tier, which, await pages('/users?', which === 'full' ? Math.floor(size.users / 2) : 0, 20));
        record('admin: events, paging on from the newest (one client, 50 pages of 100)', tier, which, await pages('/events?', 0, 100));
      }
      for (const which of order(r)) {
        record(
          'identity: sign-in (browser flow, 8 at a time)',
          tier,
          which,
          await logins(root, stacks[which].issuer, bench[which].webClient, bench[which].users, { seconds: SECONDS, concurrency: 8, password: LOGIN_PASSWORD }),
        );
      }
      log(`${tier}: identity round ${r + 1} measured`);
    }
  });
}

async function measureListing() {
  const s = stacks.full;
  const tokensOf = {};
  for (const [custid, n] of [
    ['bench-list-big', LIST],
    ['bench-list-small', 100],
  ]) {
    const exists = await sql('full', 'secrets', async (c) => (await c.query(`SELECT 1 FROM accounts WHERE custid = $1`, [custid])).rowCount > 0);
    if (!exists) await sql('full', 'secrets', (c) => seedAccount(c, { custid, n, tag: `${tag}${custid}` }));
    tokensOf[custid] = basic(custid, (await s.cli('secrets', 'tokens', 'create', custid)).api_token);
  }
  await sql('full', 'secrets', settle);
  const service = await start(s, 'secrets');
  try {
    const big = tokensOf['bench-list-big'];
    const small = tokensOf['bench-list-small'];
    const cursors = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Every page of the big account once, in order, as a client pages through it.
      const latencies = [];
      let path = '/api/v1/private/recent?limit=100';
      cursors.length = 0;
      for (;;) {
        const t = performance.now();
        const res = await fetch(`${s.base}${path}`, { headers: { authorization: big } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        const next = res.headers.get('x-next-cursor');
        if (!next) break;
        cursors.push(next);
        path = `/api/v1/private/recent?limit=100&before=${next}`;
      }
      latencies.sort((a, b) => a - b);
      record('listing: every page of the big account, one after the other (one client)', 'list', 'big', {
        pages: latencies.length,
        p50: +latencies[Math.floor(latencies.length / 2)].toFixed(1),
        p99: +latencies[Math.floor(latencies.length * 0.99)].toFixed(1),
      });
      const pages = cursors.map((c) => `/api/v1/private/recent?limit=100&before=${c}`);
      const runs = {
        big: () => gets(s.base, pages, { seconds: SECONDS, headers: { authorization: big } }),
        small: () => gets(s.base, ['/api/v1/private/recent?limit=100'], { seconds: SECONDS, headers: { authorization: small } }),
      };
      for (const which of r % 2 === 0 ? ['small', 'big'] : ['big', 'small']) {
        record(`listing: pages of an account with ${LIST} secrets against the page of one with 100 (8 connections)`, 'list', which, await runs[which]());
      }
    }
    log('listing measured');
  } finally {
    await service.stop();
  }
}

async function measureSweep() {
  const s = stacks.full;
  const { auth } = bench.full;
  const expired = () => sql('full', 'secrets', async (c) => Number((await c.query(`SELECT count(*) AS n FROM secrets WHERE expires_at <= now()`)).rows[0].n));
  await sql('full', 'secrets', (c) => seedExpired(c, { n: SWEEP, accounts: Math.max(100, Math.floor(have.secrets.accounts)), tag: `${tag}sweep${Date.now().toString(36)}`, log }));
  await sql('full', 'secrets', settle);
  /** Shares and reads at once (half the connections each), reads taking keys from a pool shares refill. */
  const mixed = async () => {
    const pool = [];
    await shares(s.base, auth, { seconds: 4, connections: 8, keys: pool });
    const [share, read] = await Promise.all([
      shares(s.base, auth, { seconds: SECONDS, connections: CONNECTIONS / 2, keys: pool }),
      reads(s.base, pool, { seconds: SECONDS, connections: CONNECTIONS / 2 }),
    ]);
    return { share, read };
  };
  /** One window of load on a service whose sweeper is off (due only in a day) or on (due every second). */
  const window = async (sweeping) => {
    const service = await start(s, 'secrets', { SWEEP_INTERVAL: sweeping ? '1' : '86400' });
    const t = performance.now();
    try {
      const w = await mixed();
      record('sweep: share', 'sweep', sweeping ? 'on' : 'off', w.share);
      record('sweep: read', 'sweep', sweeping ? 'on' : 'off', w.read);
    } finally {
      await service.stop();
    }
    return performance.now() - t;
  };
  const before = await expired();
  let sweepingMs = 0;
  let left = before;
  // Alternated windows (off, on, on, off, ...), as long as there is something to sweep, at most 4 rounds.
  for (let r = 0; r < 4 && left > 0; r++) {
    for (const on of r % 2 === 0 ? [false, true] : [true, false]) {
      const ms = await window(on);
      if (on) sweepingMs += ms;
    }
    left = await expired();
    log(`sweep: ${left} expired secrets left after ${(sweepingMs / 1000).toFixed(0)} s of sweeping`);
  }
  // Then the sweeper alone under the same load until it is done (at most 30 minutes).
  if (left > 0) {
    const service = await start(s, 'secrets', { SWEEP_INTERVAL: '1' });
    const t = performance.now();
    try {
      while (left > 0 && performance.now() - t < 1_800_000) {
        const w = await mixed();
        record('sweep: share', 'sweep', 'on', w.share);
        record('sweep: read', 'sweep', 'on', w.read);
        left = await expired();
        log(`sweep: ${left} expired secrets left after ${((sweepingMs + performance.now() - t) / 1000).toFixed(0)} s of sweeping`);
      }
    } finally {
      await service.stop();
      sweepingMs += performance.now() - t;
    }
  }
  record('sweep: time to delete the expired secrets', 'sweep', 'on', { expired: before, left, seconds: left > 0 ? null : Math.round(sweepingMs / 1000) });
}

function report() {
  const elapsed = Math.round((performance.now() - started) / 60000);
  console.log(`(results: ${args.report ?? resultsFile})`);
  console.log(
    `scale benchmark of ${root}: ${os.cpus().length} cores, Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} rounds alternated, ${elapsed} min`,
  );
  for (const [tier, ls] of Object.entries(loads))
    console.log(`- load average while measuring ${tier}: ${Math.min(...ls).toFixed(1)}–${Math.max(...ls).toFixed(1)}, median ${median(ls).toFixed(1)}`);
  const med = (runs, key) => median((runs ?? []).map((x) => x[key]));
  const fmt = (rps, p99) => (rps === undefined ? '–' : `${Math.round(rps)}/s, p99 ${Math.round(p99 * 10) / 10} ms`);
  const errs = (runs) => {
    const n = (runs ?? []).reduce((a, x) => a + (x.errors ?? 0) + (x.non2xx ?? 0) + (x.failures ?? 0), 0);
    return n ? ` (${n} failed)` : '';
  };
  /**
   * Median of A, median of B, and the median of each round's ratio (throughput B/A, p99 B/A): the
   * two measurements of a round ran minutes apart, under the same neighbours.
   */
  const pair = (a, b) => {
    const [ra, pa, rb, pb] = [med(a, 'rps'), med(a, 'p99'), med(b, 'rps'), med(b, 'p99')];
    const rounds = Math.min(a?.length ?? 0, b?.length ?? 0);
    const per = (key) => median(Array.from({ length: rounds }, (_, i) => (a[i][key] && b[i][key] ? b[i][key] / a[i][key] : undefined)));
    const [rr, rp] = [per('rps'), per('p99')];
    const ratio = rr !== undefined ? `${rr.toFixed(2)}, ${rp.toFixed(2)}` : rp !== undefined ? `–, ${rp.toFixed(2)}` : '–';
    return [`${fmt(ra, pa)}${errs(a)}`, `${fmt(rb, pb)}${errs(b)}`, ratio];
  };
  console.log('');
  console.log(
    `| measurement | tier | ${args.baseline === 'empty' ? 'empty' : `baseline (${args.baseline} tier)`}, median | full, median | ratio (throughput, p99), median of the rounds' |`,
  );
  console.log(`|---|---|---|---|---|`);
  for (const [name, byTier] of Object.entries(results)) {
    if (name.startsWith('sweep: time')) continue;
    for (const [tier, runs] of Object.entries(byTier)) {
      if (name === 'database size') console.log(`| ${name} | ${tier} | | ${JSON.stringify(runs.full[0]).replace(/,"load":[0-9.]+/, '')} | |`);
      else if (runs.empty || runs.full) console.log(`| ${name} | ${tier} | ${pair(runs.empty, runs.full).join(' | ')} |`);
      else if (runs.big && !runs.small) console.log(`| ${name} | ${tier} | | p50 ${med(runs.big, 'p50')} ms, p99 ${med(runs.big, 'p99')} ms (${runs.big[0].pages} pages) | |`);
      else if (runs.small || runs.big) console.log(`| ${name} | ${tier} | 100 secrets: ${pair(runs.small, runs.big).join(' | ')} |`);
      else if (runs.off || runs.on)
        console.log(`| ${name} | ${tier} | sweeper off: ${pair(runs.off, runs.on).join(' | ')}; worst window on: p99 ${Math.max(...runs.on.map((x) => x.p99))} ms |`);
    }
  }
  const swept = results['sweep: time to delete the expired secrets']?.sweep.on[0];
  if (swept) console.log(`\n- sweep: ${JSON.stringify(swept)}`);
  console.log(JSON.stringify(results));
}

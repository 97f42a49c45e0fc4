#!/usr/bin/env node
// Costs as the data grows: identity and the secrets service measured on an empty database and
// then, in the same run and on the same databases, after PostgreSQL was filled tier by tier with
// set-based SQL (bench/scale/seed-*.mjs: secrets live and expired, receipts, requests, API tokens,
// accounts; users, clients, organizations, role mappings, events, sessions, grants, refresh
// tokens). Each figure is given with its ratio to the empty database's.
//
//   npx tsc -b && node_modules/.bin/node bench/scale.mjs [--tiers empty,1k,1M,10M] [--duration 10]
//     [--connections 32] [--list 100000] [--sweep 1000000] [--only secrets|identity] [--keep] [--root <checkout>]
//
// Tiers (each adds to the one before):   secrets  users  clients  events
//   1k                                      1,000  1,000      100  10,000
//   1M                                  1,000,000 100,000  10,000  1,000,000
//   10M                                10,000,000 100,000  10,000  10,000,000
// Per tier: share and read (32 connections: shares for --duration, then every key read once);
// client-credentials tokens; the admin API's user search and lists, client list and search, event
// queries; sign-ins through the browser flow (8 at a time; the sign-in users' bcrypt cost is 4 on
// every tier, so what differs is the lookups). After the last tier: --list (an account with that
// many live secrets listed page by page against an account with 100), then --sweep (that many
// expired secrets added while the service is down; share and read p99 with the sweeper idle, then
// while it deletes them, and how long it takes). --list 0 / --sweep 0 skip them. A small run:
// `--tiers 1k --duration 3 --list 10000 --sweep 10000` (about a minute).
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { randomBytes } from 'node:crypto';
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
    tiers: { type: 'string', default: 'empty,1k' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    list: { type: 'string', default: '100000' },
    sweep: { type: 'string', default: '1000000' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    root: { type: 'string', default: join(here, '..') },
  },
});
const TIERS = {
  empty: { secrets: 0, users: 0, clients: 0, events: 0 },
  '1k': { secrets: 1_000, users: 1_000, clients: 100, events: 10_000 },
  '100k': { secrets: 100_000, users: 10_000, clients: 1_000, events: 100_000 },
  '1M': { secrets: 1_000_000, users: 100_000, clients: 10_000, events: 1_000_000 },
  '10M': { secrets: 10_000_000, users: 100_000, clients: 10_000, events: 10_000_000 },
};
const tiers = args.tiers.split(',');
for (const t of tiers) if (!TIERS[t]) throw new Error(`unknown tier ${t} (${Object.keys(TIERS).join(', ')})`);
if (tiers[0] !== 'empty') tiers.unshift('empty');
const root = resolve(args.root);
const SECONDS = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const LIST = Number(args.list);
const SWEEP = Number(args.sweep);
const want = (service) => !args.only || args.only === service;
const tag = `scale_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const log = (m) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

const s = stack(root, tag, { identity: { PASSWORD_HASH_COST: '4' } });
const sql = async (service, fn) => {
  const client = new pg.Client({ connectionString: databaseUrl(s.databases[service]) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};
const results = {};
const basic = (custid, token) => `Basic ${Buffer.from(`${custid}:${token}`).toString('base64')}`;
// Set up below: the bench's own API token, clients and sign-in users (prepare()), and the counts of what the databases hold.
let bench;
let have = { secrets: { secrets: 0, receipts: 0, requests: 0, accounts: 0 }, identity: { users: 0, clients: 0, events: 0, organizations: 0 } };
const record = (name, tier, value) => ((results[name] ??= {})[tier] = value);

await s.create();
try {
  // ---- set-up: what the bench itself uses, the same on every tier ------------------------------
  bench = await prepare(s, 'bench');

  for (const tier of tiers) {
    const size = TIERS[tier];
    if (tier !== 'empty') {
      const t0 = performance.now();
      if (want('secrets')) have.secrets = await sql('secrets', (c) => seedSecrets(c, { secrets: size.secrets, have: have.secrets, tag: `${tag}${tier}`, log }));
      if (want('identity')) have.identity = await sql('identity', (c) => seedIdentity(c, { ...size, have: have.identity, tag: `${tier}`, log }));
      log(`${tier}: seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    if (want('secrets')) await sql('secrets', settle);
    if (want('identity')) await sql('identity', settleIdentity);
    record('database size', tier, await databaseSizes());
    if (want('secrets')) await measureSecrets(tier);
    if (want('identity')) await measureIdentity(tier, size);
  }
  if (want('secrets') && LIST > 0) await measureListing();
  if (want('secrets') && SWEEP > 0) await measureSweep();
} finally {
  if (!args.keep) await s.drop();
  else log(`kept databases ${Object.values(s.databases).join(', ')}`);
}
report();

async function databaseSizes() {
  const out = {};
  for (const service of Object.keys(s.databases)) {
    out[service] = await sql(service, async (c) => (await c.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`)).rows[0].size);
  }
  return out;
}

async function measureSecrets(tier) {
  const service = await s.start('secrets');
  try {
    const { auth } = bench;
    await shares(s.base, auth, { seconds: 2, connections: 8 }); // warm-up
    const keys = [];
    record('secrets: share', tier, await shares(s.base, auth, { seconds: SECONDS, connections: CONNECTIONS, keys }));
    record('secrets: read', tier, await reads(s.base, keys, { connections: CONNECTIONS }));
    log(`${tier}: secrets measured`);
  } finally {
    await service.stop();
  }
}

async function measureIdentity(tier, size) {
  const service = await s.start('identity');
  try {
    record('identity: token (client credentials)', tier, await tokens(s.issuer, bench.ccClient, { seconds: SECONDS, connections: CONNECTIONS }));
    const token = await adminToken(s.issuer, s.env.identity.ADMIN_CLIENT_SECRET);
    const headers = { authorization: `Bearer ${token}` };
    // A user and a client of the seeded ones, far from the busiest (a tenth of the way down the skew).
    const { user, client } = await sql('identity', async (c) => ({
      user:
        (await c.query(`SELECT id FROM users WHERE username ~ ('\\.' || $1 || '$')`, [Math.max(1, Math.floor(size.users / 10))])).rows[0]?.id ??
        '00000000-0000-4000-8000-000000000000',
      client: (await c.query(`SELECT client_id FROM clients ORDER BY created_at DESC, client_id LIMIT 1 OFFSET $1`, [Math.floor(size.clients / 10)])).rows[0]?.client_id ?? 'none',
    }));
    const queries = {
      'admin: users, search "garcia" (max 20)': `/users?search=garcia&max=20`,
      'admin: users, search one user (max 20)': `/users?search=ravi.sato.${Math.max(1, size.users - 7)}&max=20`,
      'admin: users, exact username': `/users?username=bench-login-3&exact=true`,
      'admin: users, first page (20)': `/users?first=0&max=20`,
      'admin: users, a jump to the middle (20, by offset)': `/users?first=${Math.floor(size.users / 2)}&max=20`,
      'admin: users, count': `/users/count`,
      'admin: clients, first page (20)': `/clients?first=0&max=20`,
      'admin: clients, search (max 20)': `/clients?clientId=99&search=true&max=20`,
      'admin: events, newest 100': `/events?max=100`,
      'admin: events of one user': `/events?user=${user}&max=100`,
      'admin: events of one client': `/events?client=${client}&max=100`,
      'admin: events, LOGIN_ERROR': `/events?type=LOGIN_ERROR&max=100`,
      'admin: admin events, newest 100': `/admin-events?max=100`,
    };
    for (const [name, path] of Object.entries(queries)) {
      record(name, tier, await gets(s.auth, [`/auth/admin/realms/public${path}`], { seconds: Math.max(2, SECONDS / 2), headers }));
    }
    const pages = (path, from, size) => walk(s.auth, (first) => `/auth/admin/realms/public${path}first=${first}&max=${size}`, { from, size, pages: 51, headers });
    record('admin: users, paging on from the middle (one client, 50 pages of 20)', tier, await pages('/users?', Math.floor(size.users / 2), 20));
    record('admin: events, paging on from the newest (one client, 50 pages of 100)', tier, await pages('/events?', 0, 100));
    record(
      'identity: sign-in (browser flow, 8 at a time)',
      tier,
      await logins(root, s.issuer, bench.webClient, bench.users, { seconds: SECONDS, concurrency: 8, password: LOGIN_PASSWORD }),
    );
    log(`${tier}: identity measured`);
  } finally {
    await service.stop();
  }
}

async function measureListing() {
  for (const [custid, n] of [
    ['bench-list-big', LIST],
    ['bench-list-small', 100],
  ]) {
    await sql('secrets', (c) => seedAccount(c, { custid, n, tag: `${tag}${custid}` }));
  }
  await sql('secrets', settle);
  const big = basic('bench-list-big', (await s.cli('secrets', 'tokens', 'create', 'bench-list-big')).api_token);
  const small = basic('bench-list-small', (await s.cli('secrets', 'tokens', 'create', 'bench-list-small')).api_token);
  const service = await s.start('secrets');
  try {
    // Every page of the big account once, in order, as a client pages through it.
    const cursors = [];
    const latencies = [];
    let path = '/api/v1/private/recent?limit=100';
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
    record('listing: every page of the big account, one after the other', 'list', {
      pages: latencies.length,
      p50: +latencies[Math.floor(latencies.length / 2)].toFixed(1),
      p99: +latencies[Math.floor(latencies.length * 0.99)].toFixed(1),
    });
    const pages = cursors.map((c) => `/api/v1/private/recent?limit=100&before=${c}`);
    record(
      `listing: pages of an account with ${LIST} secrets (random pages, 8 connections)`,
      'list',
      await gets(s.base, pages, { seconds: SECONDS, headers: { authorization: big } }),
    );
    record(
      'listing: the page of an account with 100 secrets (8 connections)',
      'list',
      await gets(s.base, ['/api/v1/private/recent?limit=100'], { seconds: SECONDS, headers: { authorization: small } }),
    );
    log('listing measured');
  } finally {
    await service.stop();
  }
}

async function measureSweep() {
  const { auth } = bench;
  const expired = () => sql('secrets', async (c) => Number((await c.query(`SELECT count(*) AS n FROM secrets WHERE expires_at <= now()`)).rows[0].n));
  await sql('secrets', (c) => seedExpired(c, { n: SWEEP, accounts: Math.max(100, Math.floor(have.secrets.secrets / 100)), tag: `${tag}sweep`, log }));
  await sql('secrets', settle);
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
  // Without the sweeper: it is due only in a day.
  let service = await s.start('secrets', { SWEEP_INTERVAL: '86400' });
  try {
    const idle = await mixed();
    record('sweep: share while the sweeper is idle', 'sweep', idle.share);
    record('sweep: read while the sweeper is idle', 'sweep', idle.read);
  } finally {
    await service.stop();
  }
  // With it: due every second; windows of load until every expired secret is gone (at most 20).
  const before = await expired();
  const t0 = performance.now();
  service = await s.start('secrets', { SWEEP_INTERVAL: '1' });
  const windows = [];
  let left = before;
  try {
    for (let i = 0; i < 20 && left > 0; i++) {
      windows.push(await mixed());
      left = await expired();
      log(`sweep: ${left} expired secrets left after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    while (left > 0 && performance.now() - t0 < 900_000) {
      await new Promise((r) => setTimeout(r, 2000));
      left = await expired();
    }
  } finally {
    await service.stop();
  }
  const worst = (kind) => windows.reduce((w, x) => (x[kind].p99 > w.p99 ? x[kind] : w), windows[0][kind]);
  record('sweep: share while the sweeper runs (worst window)', 'sweep', worst('share'));
  record('sweep: read while the sweeper runs (worst window)', 'sweep', worst('read'));
  record('sweep: time to delete the expired secrets', 'sweep', {
    expired: before,
    left,
    seconds: left > 0 ? null : Math.round((performance.now() - t0) / 1000),
    windows: windows.length,
  });
}

function report() {
  const ratio = (v, base) => (base && typeof v?.rps === 'number' && base.rps ? ` (${(v.rps / base.rps).toFixed(2)}x, p99 ${(v.p99 / base.p99).toFixed(2)}x)` : '');
  const cell = (v, base) => {
    if (!v) return '–';
    if (typeof v.rps === 'number')
      return `${v.rps}/s, p99 ${v.p99} ms${ratio(v, base)}${v.errors || v.non2xx || v.failures ? `, ${v.errors ?? 0} errors, ${v.non2xx ?? 0} non-2xx${v.failures ? `, ${v.failures} failed` : ''}` : ''}`;
    return JSON.stringify(v);
  };
  console.log(`scale benchmark of ${root}: ${os.cpus().length} cores, Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per measurement`);
  console.log(`| measurement | ${tiers.join(' | ')} |`);
  console.log(`|---|${tiers.map(() => '---').join('|')}|`);
  const phases = [];
  for (const [name, byTier] of Object.entries(results)) {
    if (tiers.some((t) => byTier[t])) console.log(`| ${name} | ${tiers.map((t) => cell(byTier[t], name === 'database size' ? undefined : byTier.empty)).join(' | ')} |`);
    else phases.push([name, Object.values(byTier)[0]]);
  }
  if (phases.length) console.log('');
  for (const [name, v] of phases) console.log(`- ${name}: ${cell(v)}`);
  console.log(JSON.stringify(results));
}

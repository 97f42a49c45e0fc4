#!/usr/bin/env node
// bench/event-cost: what recording one audit event costs identity's process, measured on the
// recorder alone against a throw-away database: the push the token endpoint's listener makes on
// the request's path, and the batched INSERT (serialisation, pg client) that runs off it; the
// INSERT's wall time bounds what PostgreSQL spends on it. The token endpoint records one event per
// token, so these are per-token figures to set beside bench/token-cost.mjs' CPU per token.
// Run from the root, after `npx tsc -b`:
//   node_modules/.bin/node bench/event-cost.mjs [--batches N]   (batches of 500, as at ~2,000 tokens/s)
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import pg from 'pg';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const admin = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const batches = Number(process.argv.includes('--batches') ? process.argv[process.argv.indexOf('--batches') + 1] : 40);
const BATCH = 500;
const dist = join(here, 'services/identity/dist/src');
const { createDb, migrateLatest } = await import(join(dist, 'db/knex.js'));
const { EventRecorder, EventsRepository } = await import(join(dist, 'events/index.js'));

const database = `bench_events_${randomBytes(4).toString('hex')}`;
const adminClient = new pg.Client({ connectionString: admin });
await adminClient.connect();
await adminClient.query(`CREATE DATABASE "${database}"`);
const url = new URL(admin);
url.pathname = `/${database}`;
const db = createDb(url.toString());
const silent = { warn() {}, error() {}, info() {}, debug() {} };
// What the token endpoint's listener records for a client-credentials token.
const event = () => ({ type: 'CLIENT_LOGIN', clientId: 'b6f2c1d0-bench-client', ipAddress: '127.0.0.1', details: { grant_type: 'client_credentials', scope: 'bench:read' } });
const cpu = (since) => {
  const d = process.cpuUsage(since);
  return d.user + d.system;
};

try {
  await migrateLatest(db);
  const defaults = { eventsEnabled: true, adminEventsEnabled: true, adminEventsDetailsEnabled: false, enabledEventTypes: [], eventsExpiration: 0 };
  // No timer: each batch is written by an explicit flush, so the two costs are measured apart.
  const recorder = new EventRecorder(new EventsRepository(db), defaults, silent, { flushMs: 1e9, maxBatch: 1e9 });
  for (let warm = 0; warm < 3; warm++) {
    for (let i = 0; i < BATCH; i++) recorder.user(event());
    await recorder.flush();
  }
  let push = 0;
  let write = 0;
  let wall = 0n;
  for (let b = 0; b < batches; b++) {
    let since = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) recorder.user(event());
    push += cpu(since);
    since = process.cpuUsage();
    const start = process.hrtime.bigint();
    await recorder.flush();
    wall += process.hrtime.bigint() - start;
    write += cpu(since);
  }
  const n = BATCH * batches;
  console.log(`${n} events in batches of ${BATCH}, µs per event:`);
  console.log(`| push (request path) | batched write, identity CPU | batched write, wall time |`);
  console.log(`|---|---|---|`);
  console.log(`| ${(push / n).toFixed(2)} | ${(write / n).toFixed(2)} | ${(Number(wall) / 1000 / n).toFixed(2)} |`);
} finally {
  await db.destroy();
  await adminClient.query(`DROP DATABASE "${database}"`);
  await adminClient.end();
}

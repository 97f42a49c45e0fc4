import pg from 'pg';
import { adminDatabaseUrl, eventually, probeReadiness, TcpProxy } from '@hush/testing';
import { createClient, startIdentityService, startSecretsService, type RunningService } from './services.js';

/**
 * Both services under a steady load of shares, reads and token requests while PostgreSQL, behind
 * a proxy, stops answering for 15 s and then for 45 s (a hung server, a partition). Whatever the
 * queue for pooled connections, every request is answered (none hangs), none is a 500, a request
 * answered 503 never takes effect later, and /readyz answers throughout, unready while the
 * database is stalled. The stalled PostgreSQL answers nothing: an answer during the stall is the
 * services' own deadline (DATABASE_TIMEOUT_MS) at work. How long each took is not asserted; a busy
 * machine lengthens them all, and the circuit that refuses requests at once after a timeout is
 * proven where it lives (packages/common/src/db.test.ts).
 */
const TIMEOUT_MS = 1000;
// Requests stop this long before a stall ends, so that every one is answered while it lasts.
const ANSWER_MARGIN_MS = TIMEOUT_MS + 1000;
const REQUESTS_PER_SECOND = 45;
const READY_PROBE_INTERVAL_MS = 250;
// A request with no answer after ten times the database timeout is given up on, and counted as a hang.
const HANG_MS = 10 * TIMEOUT_MS;

const postgres = new TcpProxy(adminDatabaseUrl);
let secrets: RunningService;
let identity: RunningService;
let auth: string;
let client: { id: string; secret: string; scope: string };

beforeAll(async () => {
  await postgres.start();
  const env = { DATABASE_TIMEOUT_MS: String(TIMEOUT_MS) };
  [secrets, identity] = await Promise.all([
    startSecretsService(postgres, { ...env, RATE_LIMIT_MAX: '0' }),
    // CLIENT_CACHE off: every token request reads its client; refresh tokens are stored through the batched writer.
    startIdentityService(postgres, { ...env, CLIENT_CACHE: 'false' }),
  ]);
  const { api_token } = await secrets.cli<{ api_token: string }>('tokens', 'create', 'alice');
  auth = `Basic ${Buffer.from(`alice:${api_token}`).toString('base64')}`;
  const base = await createClient(identity);
  const made = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'stall load',
    '--grants',
    'client_credentials,refresh_token',
    '--scopes',
    base.scope,
  );
  client = { id: made.client_id, secret: made.client_secret, scope: base.scope };
  // Unread secrets for the reads around the stalls (1.5 s before, 3 s after each, 15 reads/s), even
  // if none of the shares of the load succeeds; a read refused with 503 gives its key back.
  for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 40 }, share));
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([secrets?.close(), identity?.close()]);
  await postgres.stop();
});

type Kind = 'share' | 'read' | 'token' | 'ready-secrets' | 'ready-identity';
interface Answer {
  kind: Kind;
  status: number | 'hang' | 'error';
  retryAfter: string | null;
  body: string;
}

/**
 * Keys of shared secrets not yet read: reads take one each (a missing key still reads the
 * database), and give it back when refused with 503, as such a read never takes effect.
 */
const unread: string[] = [];

async function send(kind: Kind, url: string, init: RequestInit): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    const body = await res.text();
    return { kind, status: res.status, retryAfter: res.headers.get('retry-after'), body };
  } catch (err) {
    return { kind, status: (err as Error).name === 'TimeoutError' ? 'hang' : 'error', retryAfter: null, body: String(err) };
  }
}

async function share(): Promise<Answer> {
  const answer = await send('share', `${secrets.url}/api/v1/share`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ secret: 'stall load' }),
  });
  if (answer.status === 200) unread.push((JSON.parse(answer.body) as { secret_key: string }).secret_key);
  return answer;
}

/** A key already read: once every shared one is, reads look one up again (404 from the database). */
let readKey: string | undefined;
async function read(): Promise<Answer> {
  const key = unread.shift();
  readKey = key ?? readKey;
  const answer = await send('read', `${secrets.url}/api/v1/secret/${readKey}`, { method: 'POST' });
  if (key !== undefined && answer.status === 503) unread.push(key);
  return answer;
}

const token = () =>
  send('token', `${identity.url}/auth/realms/public/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope: client.scope }).toString(),
  });

async function ready(kind: 'ready-secrets' | 'ready-identity'): Promise<Answer> {
  const { status } = await probeReadiness(kind === 'ready-secrets' ? secrets.managementUrl : identity.managementUrl);
  return { kind, status, retryAfter: null, body: '' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the load (share, read, token in turn, open loop) and the readiness probes for `ms`; resolves with every answer once all have come. */
async function load(ms: number): Promise<Answer[]> {
  const pending: Promise<Answer>[] = [];
  const until = Date.now() + ms;
  const senders = [share, read, token];
  let n = 0;
  let nextReady = 0;
  let nextAt = Date.now();
  while (Date.now() < until) {
    pending.push((senders[n++ % senders.length] as () => Promise<Answer>)());
    if (Date.now() >= nextReady) {
      pending.push(ready('ready-secrets'), ready('ready-identity'));
      nextReady = Date.now() + READY_PROBE_INTERVAL_MS;
    }
    // On a schedule, not a fixed pause: the rate holds whatever each iteration costs.
    nextAt += 1000 / REQUESTS_PER_SECOND;
    await sleep(nextAt - Date.now());
  }
  return Promise.all(pending);
}

async function rowCounts(): Promise<{ shares: number; oidc: number }> {
  const count = async (url: string, table: string) => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
    } finally {
      await db.end();
    }
  };
  const [shares, oidc] = await Promise.all([count(secrets.databaseUrl, 'metadata'), count(identity.databaseUrl, 'oidc_models')]);
  return { shares, oidc };
}

/**
 * Load through a stall of `stallMs`: the requests stop a little before its end so all are
 * answered while it lasts; the rows are counted then (straight, not through the proxy) and again
 * once the database answers again, before any new request: nothing answered 503 was written later.
 * Then the load again once both services serve.
 */
async function throughStall(stallMs: number): Promise<{ before: Answer[]; during: Answer[]; after: Answer[] }> {
  const before = await load(1500);
  postgres.stall();
  const during = await load(stallMs - ANSWER_MARGIN_MS - 500);
  await sleep(500);
  const answered = await rowCounts();
  await postgres.stop();
  await postgres.start();
  expect(await rowCounts()).toEqual(answered);
  // Serving again (each service's circuit lets a trial through and closes), then the load once more.
  await eventually(
    async () => ((await Promise.all([share(), read(), token()])).every((a) => a.status === 200 || (a.kind === 'read' && a.status === 404)) ? true : undefined),
    30_000,
    200,
  );
  const after = await load(3000);
  return { before, during, after };
}

function expectAnswered(answers: Answer[]): void {
  const unanswered = answers.filter((a) => typeof a.status !== 'number');
  const failed = answers.filter((a) => typeof a.status === 'number' && a.status >= 500 && a.status !== 503);
  const unavailableWithoutRetry = answers.filter((a) => a.status === 503 && !a.kind.startsWith('ready') && !(Number(a.retryAfter) > 0));
  expect({ unanswered, failed, unavailableWithoutRetry }).toEqual({ unanswered: [], failed: [], unavailableWithoutRetry: [] });
}

function expectServing(answers: Answer[]): void {
  // The database answers: so does every service (after a stall, without a restart): in the last
  // second of load, each kind of request is served. Not every one: a machine too busy for the pace
  // makes the pool's queue outlast the timeout, and the services then shed requests (503 with
  // Retry-After, checked by expectAnswered) by design.
  const last = answers.filter((a) => !a.kind.startsWith('ready')).slice(-REQUESTS_PER_SECOND);
  const served = (kind: Kind) => last.some((a) => a.kind === kind && (a.status === 200 || (kind === 'read' && a.status === 404)));
  expect({ share: served('share'), read: served('read'), token: served('token') }).toEqual({ share: true, read: true, token: true });
}

describe('PostgreSQL stalled under load (share, read and token at 45 requests/s)', () => {
  it.each([15_000, 45_000])(
    'stalled for %i ms: every request answered, no 500, no late write, /readyz unready meanwhile',
    async (stallMs) => {
      const { before, during, after } = await throughStall(stallMs);
      expectAnswered([...before, ...during, ...after]);
      expectServing(before);
      // More requests than the pools have connections (20 each): the stall queued them, whatever rate a busy machine reached.
      const load = during.filter((a) => !a.kind.startsWith('ready'));
      expect(load.length).toBeGreaterThan(2 * 20);
      // Past the first timeout, every request is refused: none waits for the stalled database to come back.
      const late = load.slice(Math.ceil(((2 * TIMEOUT_MS) / 1000) * REQUESTS_PER_SECOND));
      expect(late.filter((a) => a.status !== 503)).toEqual([]);
      // Readiness: unready from the first timeout on, for both services.
      const probes = during.filter((a) => a.kind.startsWith('ready')).slice(8);
      expect(probes.filter((a) => a.status !== 503)).toEqual([]);
      expectServing(after);
    },
    120_000,
  );
});

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type FormResponse, type MonitoredCommand, postForm, RedisMonitor, testRedisUrl } from '@hush/testing';
import { basic, createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * Client authentication failures must not tell known client ids from made-up ones (status,
 * body, headers, work done), and made-up ids must not grow Redis.
 */

const tokenPath = '/protocol/openid-connect/token';
const madeUpId = () => `client-${randomBytes(4).toString('hex')}`;

/**
 * Everything a caller sees, minus what differs for every request (Date, X-Request-Id) or with the
 * moment it is asked (the seconds left to wait, in Retry-After and the error's description: two
 * requests sent one after the other on a busy machine may be seconds apart).
 */
function answer(res: FormResponse) {
  const perRequest = new Set(['date', 'x-request-id', 'retry-after']);
  const headers = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, perRequest.has(name) ? '(present)' : value]));
  const description = res.body['error_description'];
  const body = typeof description === 'string' ? { ...res.body, error_description: description.replace(/retry after \d+ seconds/, 'retry after (seconds) seconds') } : res.body;
  return { status: res.status, body, headers };
}

/** The failure window of every limiter in this file (AUTH_FAILURE_WINDOW). */
const WINDOW_SECONDS = 120;

function expectSameAnswer(known: FormResponse, unknown: FormResponse) {
  expect(answer(unknown)).toEqual(answer(known));
  // Told to wait (both or neither: the headers above), never longer than the window.
  for (const res of [known, unknown]) expect(Number(res.headers['retry-after'] ?? 0)).toBeLessThanOrEqual(WINDOW_SECONDS);
}

async function scanKeys(pattern: string): Promise<string[]> {
  const redis = new Redis(testRedisUrl);
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}

describe('per-client failure limit: known and unknown client ids answer alike', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '3', CLIENT_AUTH_MAX_FAILURES_PER_IP: '1000', AUTH_FAILURE_WINDOW: String(WINDOW_SECONDS) });
  });
  afterAll(() => h.close());

  it('gives the same status, body and headers before, at and past the limit, and the right secret still works', async () => {
    const url = `${h.issuer}${tokenPath}`;
    const known = await createApiAndClient(h);
    const unknownId = madeUpId();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const k = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: `guess-${i}` });
      const u = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: unknownId, client_secret: `guess-${i}` });
      expectSameAnswer(k, u);
      statuses.push(k.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);

    // Past the limit with HTTP Basic too.
    const k = await postForm(url, { grant_type: 'client_credentials', scope: known.read }, { authorization: basic(known.clientId, 'guess') });
    const u = await postForm(url, { grant_type: 'client_credentials', scope: known.read }, { authorization: basic(unknownId, 'guess') });
    expect(k.status).toBe(429);
    expectSameAnswer(k, u);

    // A caller asking for HTML gets the provider's error page either way (its CSP nonce differs per request).
    const page = (clientId: string) => postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: clientId, client_secret: 'guess' }, { accept: 'text/html' });
    const [kPage, uPage] = [await page(known.clientId), await page(unknownId)];
    for (const p of [kPage, uPage]) {
      expect(p.status).toBe(429);
      expect(p.headers['content-type']).toMatch(/^text\/html/);
      expect(p.headers['retry-after']).toMatch(/^\d+$/);
      expect(String(p.body['raw'])).toContain('temporarily_unavailable');
    }
    const withoutNonce = (p: FormResponse) =>
      String(p.body['raw'])
        .replace(/nonce="[^"]*"/g, '')
        .replace(/retry after \d+ seconds/, 'retry after (seconds) seconds');
    expect(withoutNonce(uPage)).toEqual(withoutNonce(kPage));

    const right = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: known.clientSecret });
    expect(right.status).toBe(200);
  });

  it('does the same Redis work for a known client with a bad secret as for a made-up client id', async () => {
    const url = `${h.issuer}${tokenPath}`;
    const known = await createApiAndClient(h);
    // Warm the client cache, so the known id is served from memory like a busy client.
    expect((await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: known.clientSecret })).status).toBe(200);

    const monitor = await RedisMonitor.start(testRedisUrl);
    let knownId: string[];
    let madeUp: string[];
    const ours = (seen: MonitoredCommand[]) => seen.filter((s) => s.args.some((a) => a.includes(h.config.REDIS_PREFIX))).map((s) => s.command);
    try {
      knownId = ours(await monitor.during(() => postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: 'bad' })));
      madeUp = ours(await monitor.during(() => postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: madeUpId(), client_secret: 'bad' })));
    } finally {
      monitor.close();
    }
    expect(knownId.length).toBeGreaterThan(0);
    expect(madeUp).toEqual(knownId);
  });
});

describe('per-IP failure limit: known and unknown client ids answer alike', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '100', CLIENT_AUTH_MAX_FAILURES_PER_IP: '4', AUTH_FAILURE_WINDOW: String(WINDOW_SECONDS) });
  });
  afterAll(() => h.close());

  it('blocks bad secrets for known and made-up ids alike once the address is at its limit', async () => {
    const url = `${h.issuer}${tokenPath}`;
    const known = await createApiAndClient(h);
    const unknownId = madeUpId();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const k = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: `guess-${i}` });
      const u = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: unknownId, client_secret: `guess-${i}` });
      expectSameAnswer(k, u);
      statuses.push(k.status, u.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    const right = await postForm(url, { grant_type: 'client_credentials', scope: known.read, client_id: known.clientId, client_secret: known.clientSecret });
    expect(right.status).toBe(200);
  });
});

describe('cost of made-up client ids', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({
      CLIENT_AUTH_MAX_FAILURES: '1000',
      CLIENT_AUTH_MAX_FAILURES_PER_IP: '100000',
      CLIENT_AUTH_BUCKETS: '64',
      AUTH_FAILURE_WINDOW: String(WINDOW_SECONDS),
    });
  });
  afterAll(() => h.close());

  it('keeps the failure counters in Redis bounded after 200 made-up client ids (three times the buckets)', async () => {
    const url = `${h.issuer}${tokenPath}`;
    const ids = Array.from({ length: 200 }, madeUpId);
    for (let i = 0; i < ids.length; i += 25) {
      const answers = await Promise.all(ids.slice(i, i + 25).map((id) => postForm(url, { grant_type: 'client_credentials', scope: 'x', client_id: id, client_secret: 'bad' })));
      expect(answers.every((a) => a.status === 401)).toBe(true);
    }
    const keys = await scanKeys(`${h.config.REDIS_PREFIX}*`);
    // One counter for the address plus a fixed space of client buckets (64 here), whatever the number of ids.
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.length).toBeLessThanOrEqual(1 + 64);
  });
});

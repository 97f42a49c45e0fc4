import { postForm } from '@hush/testing';
import { basic, createApiAndClient, startIdentity, type Harness } from '../harness.js';
import { atOnce, tally } from './attack.js';

/**
 * Promise: wrong client secrets for one client are answered as such (401) at most
 * CLIENT_AUTH_MAX_FAILURES times per AUTH_FAILURE_WINDOW, however many are sent at once; past that
 * they get 429 with Retry-After. The right secret is always accepted (a 256-bit secret cannot be
 * guessed, and nobody's failures may lock its owner out: clients/client-auth-failures.ts).
 */
const MAX = 10;
let h: Harness;
let tokenUrl: string;

beforeAll(async () => {
  h = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: String(MAX), CLIENT_AUTH_MAX_FAILURES_PER_IP: '1000', AUTH_FAILURE_WINDOW: '300' });
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
}, 60_000);
afterAll(() => h?.close());

describe('wrong client secrets sent at once', () => {
  it(`of 30 for one client, exactly ${MAX} are answered 401, the rest 429 with Retry-After; the right secret still gets a token`, async () => {
    const c = await createApiAndClient(h);
    const answers = await atOnce(30, (i) =>
      i % 2 === 0
        ? postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: `guess-${i}` })
        : postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read }, { authorization: basic(c.clientId, `guess-${i}`) }),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 30 - MAX });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body['error']).toBe('temporarily_unavailable');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const right = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    expect(right.status).toBe(200);
  });

  it(`of 15 for each of two made-up client ids, exactly ${MAX} per id are answered 401: an unknown id is limited as a known one`, async () => {
    const answers = await atOnce(30, (i) =>
      postForm(tokenUrl, { grant_type: 'client_credentials', scope: 'x', client_id: i < 15 ? 'made-up-a' : 'made-up-b', client_secret: 'guess' }),
    );
    expect(tally(answers.slice(0, 15).map((r) => r.status))).toEqual({ 401: MAX, 429: 15 - MAX });
    expect(tally(answers.slice(15).map((r) => r.status))).toEqual({ 401: MAX, 429: 15 - MAX });
  });
});

describe('wrong client secrets from one address, for many clients', () => {
  let ipHarness: Harness;
  beforeAll(async () => {
    ipHarness = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '1000', CLIENT_AUTH_MAX_FAILURES_PER_IP: String(MAX) });
  }, 60_000);
  afterAll(() => ipHarness?.close());

  it(`of 30 sent at once for 30 client ids, exactly ${MAX} are answered 401`, async () => {
    const url = `${ipHarness.issuer}/protocol/openid-connect/token`;
    const answers = await atOnce(30, (i) => postForm(url, { grant_type: 'client_credentials', scope: 'x', client_id: `made-up-${i}`, client_secret: 'guess' }));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 30 - MAX });
  });
});

import { randomBytes } from 'node:crypto';
import { basic, startSecrets, type Harness } from './harness.js';

/**
 * The per-IP limits count the client's address: the TCP peer, unless that peer is a proxy
 * TRUST_PROXY names, whose X-Forwarded-For then names the client. The test's requests come from
 * 127.0.0.1, so `loopback` makes the test itself the trusted proxy.
 */

const LIMIT = 3;
/** 100 to 249: never the fixed clients below (203.0.113.77 and .78), whose counts must start at zero. */
const octet = () => 100 + ((randomBytes(1)[0] as number) % 150);
/** A different made-up address for every request, as a client forging the header would send. */
const rotating = () => ({ 'x-forwarded-for': `198.51.100.${octet()}, 203.0.113.${octet()}` });

/** `LIMIT + 1` anonymous shares, each with `headers()`. */
async function anonymousShares(h: Harness, headers: () => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) statuses.push((await h.http.post('/api/v1/share').set(headers()).send({ secret: 'x' })).status);
  return statuses;
}

/** `LIMIT + 1` requests with a wrong API token, each with `headers()`. */
async function authFailures(h: Harness, headers: () => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    const res = await h.http
      .post('/api/v1/share')
      .set({ ...headers(), authorization: basic(`someone-${i}`, 'wrong-token') })
      .send({ secret: 'x' });
    statuses.push(res.status);
  }
  return statuses;
}

const limits = { ANONYMOUS_SHARES: 'true', ANONYMOUS_RATE_LIMIT_MAX: String(LIMIT), AUTH_MAX_FAILURES: String(LIMIT) };

describe.each([
  ['TRUST_PROXY unset', {}],
  ['TRUST_PROXY=10.0.0.0/8, which the peer is not in', { TRUST_PROXY: '10.0.0.0/8' }],
])('from a peer that is not a trusted proxy (%s)', (_name, trust) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSecrets({ ...limits, ...trust });
  });
  afterAll(() => h.close());

  it('a forged X-Forwarded-For, new on every request, does not leave the anonymous share limit', async () => {
    expect(await anonymousShares(h, rotating)).toEqual([200, 200, 200, 429]);
  });

  it('a forged X-Forwarded-For, new on every request, does not leave the authentication failure limit', async () => {
    expect(await authFailures(h, rotating)).toEqual([401, 401, 401, 429]);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSecrets({ ...limits, TRUST_PROXY: 'loopback' });
  });
  afterAll(() => h.close());

  it('counts anonymous shares under the client the proxy names', async () => {
    expect(await anonymousShares(h, rotating)).toEqual([200, 200, 200, 200]);
    // One client (the address the proxy appended last), whatever that client put before it.
    let n = 0;
    expect(await anonymousShares(h, () => ({ 'x-forwarded-for': `192.0.2.${++n}, 203.0.113.77` }))).toEqual([200, 200, 200, 429]);
  });

  it('counts authentication failures under the client the proxy names', async () => {
    expect(await authFailures(h, rotating)).toEqual([401, 401, 401, 401]);
    expect(await authFailures(h, () => ({ 'x-forwarded-for': '203.0.113.78' }))).toEqual([401, 401, 401, 429]);
  });
});

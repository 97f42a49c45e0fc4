import { randomBytes } from 'node:crypto';
import { Browser, parseForms, postForm } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * The per-IP limits count the client's address: the TCP peer, unless that peer is a proxy
 * TRUST_PROXY names, whose X-Forwarded-For then names the client. The test's requests come from
 * 127.0.0.1, so `loopback` makes the test itself the trusted proxy.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
const LIMIT = 3;
/** 100 to 249: never the fixed clients below (203.0.113.77 and .78), whose counts must start at zero. */
const octet = () => 100 + ((randomBytes(1)[0] as number) % 150);
/** A different made-up address for every request, as a client forging the header would send. */
const rotating = () => ({ 'x-forwarded-for': `198.51.100.${octet()}, 203.0.113.${octet()}` });

/** `LIMIT + 1` failed client authentications at the token endpoint (oidc-provider's Koa side), each with `headers()`. */
async function clientAuthFailures(h: Harness, headers: () => Record<string, string>): Promise<number[]> {
  const url = `${h.issuer}/protocol/openid-connect/token`;
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    const clientId = `made-up-${randomBytes(4).toString('hex')}`;
    statuses.push((await postForm(url, { grant_type: 'client_credentials', client_id: clientId, client_secret: 'guess' }, headers())).status);
  }
  return statuses;
}

/** `LIMIT + 1` failed sign-ins on the login page (Express), each for another username, each with `headers()`. */
async function loginFailures(h: Harness, headers: () => Record<string, string>): Promise<number[]> {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const { url } = await authorizationUrl(await clientConfig(h.issuer, c.clientId, c.clientSecret), REDIRECT, 'openid');
  const browser = new Browser(url.origin);
  const page = await browser.navigate(url.toString());
  const form = parseForms(page.html)[0] as { action: string; hidden: Record<string, string> };
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i++) {
    const res = await browser.send(form.action, { ...form.hidden, username: `user-${i}`, password: 'wrong' }, headers());
    statuses.push(res.status);
  }
  return statuses;
}

/** The cookies the authorization endpoint sets (the interaction's), requested with `headers`. */
async function interactionCookies(h: Harness, headers: Record<string, string>): Promise<string[]> {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const { url } = await authorizationUrl(await clientConfig(h.issuer, c.clientId, c.clientSecret), REDIRECT, 'openid');
  const res = await new Browser(url.origin).send(url.toString(), undefined, headers);
  expect(res.status).toBe(303);
  const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  expect(cookies.length).toBeGreaterThan(0);
  return cookies;
}

const limits = { CLIENT_AUTH_MAX_FAILURES_PER_IP: String(LIMIT), CLIENT_AUTH_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_PER_IP: String(LIMIT), LOGIN_MAX_FAILURES: '1000' };

describe('from a peer that is not a trusted proxy (TRUST_PROXY unset)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity(limits);
  });
  afterAll(() => h.close());

  it('a forged X-Forwarded-For, new on every request, does not leave the per-IP client authentication limit', async () => {
    expect(await clientAuthFailures(h, rotating)).toEqual([401, 401, 401, 429]);
  });

  it('a forged X-Forwarded-For, new on every request, does not leave the per-IP sign-in limit', async () => {
    expect(await loginFailures(h, rotating)).toEqual([401, 401, 401, 429]);
  });
});

describe('from a peer outside the trusted addresses (TRUST_PROXY=10.0.0.0/8)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({ ...limits, TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(() => h.close());

  it('a forged X-Forwarded-For does not leave the per-IP limits either', async () => {
    expect(await clientAuthFailures(h, rotating)).toEqual([401, 401, 401, 429]);
    expect(await loginFailures(h, rotating)).toEqual([401, 401, 401, 429]);
  });

  it('a forged X-Forwarded-Proto does not make the connection count as HTTPS (no Secure cookies over plain HTTP)', async () => {
    for (const cookie of await interactionCookies(h, { 'x-forwarded-proto': 'https' })) expect(cookie).not.toMatch(/;\s*secure/i);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({ ...limits, TRUST_PROXY: 'loopback' });
  });
  afterAll(() => h.close());

  it('counts client authentication failures under the client the proxy names', async () => {
    // Each request from another client: no bucket fills.
    expect(await clientAuthFailures(h, rotating)).toEqual([401, 401, 401, 401]);
    // One client (the address the proxy appended last), whatever that client put before it.
    let n = 0;
    expect(await clientAuthFailures(h, () => ({ 'x-forwarded-for': `192.0.2.${++n}, 203.0.113.77` }))).toEqual([401, 401, 401, 429]);
  });

  it('takes HTTPS from the X-Forwarded-Proto of the proxy (Secure cookies)', async () => {
    for (const cookie of await interactionCookies(h, { 'x-forwarded-proto': 'https' })) expect(cookie).toMatch(/;\s*secure/i);
    for (const cookie of await interactionCookies(h, {})) expect(cookie).not.toMatch(/;\s*secure/i);
  });

  it('counts sign-in failures under the client the proxy names', async () => {
    expect(await loginFailures(h, rotating)).toEqual([401, 401, 401, 401]);
    expect(await loginFailures(h, () => ({ 'x-forwarded-for': '203.0.113.78' }))).toEqual([401, 401, 401, 429]);
  });
});

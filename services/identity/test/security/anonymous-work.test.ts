import { Redis } from 'ioredis';
import pg from 'pg';
import { postForm, testRedisUrl } from '@hush/testing';
import { startIdentity, type Harness } from '../harness.js';

/**
 * Promise: the work an anonymous caller can make identity do is bounded per caller. Starting a
 * sign-in (the authorization, device authorization and pushed authorization request endpoints,
 * each of which stores something) is limited per IP, and so is viewing a login page; past either
 * limit, 429 with Retry-After, and nothing more is stored. What a started sign-in stores expires
 * in minutes (INTERACTION_TTL), and a login page stores no passkey challenge until the person
 * asks to sign in with a passkey.
 */

const LIMIT = 20;
const REDIRECT = 'http://127.0.0.1:9/cb';
let h: Harness;
let db: pg.Client;
let redis: Redis;
let app: { client_id: string };
let confidential: { client_id: string; client_secret: string };
let device: { client_id: string };
let ip = 0;
/** A caller of its own: identity trusts the test as its proxy (TRUST_PROXY=loopback), so X-Forwarded-For names the caller. */
const newCaller = () => ({ 'x-forwarded-for': `198.51.100.${++ip}` });

beforeAll(async () => {
  h = await startIdentity({ TRUST_PROXY: 'loopback', SIGN_IN_MAX_PER_IP: String(LIMIT), LOGIN_PAGE_MAX_PER_IP: String(LIMIT) });
  app = await h.cli('clients', 'create', '--name', 'app', '--public', '--grants', 'authorization_code', '--scopes', 'openid', '--redirect-uri', REDIRECT);
  confidential = await h.cli('clients', 'create', '--name', 'par app', '--grants', 'authorization_code', '--scopes', 'openid', '--redirect-uri', REDIRECT);
  device = await h.cli('clients', 'create', '--name', 'tv', '--public', '--grants', 'urn:ietf:params:oauth:grant-type:device_code', '--scopes', 'openid');
  db = new pg.Client({ connectionString: h.env['DATABASE_URL'] });
  await db.connect();
  redis = new Redis(testRedisUrl);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await db?.end();
  await h?.close();
});

const interactions = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM oidc_models WHERE model = 'Interaction'`)).rows[0]!.n;
const authUrl = () =>
  `${h.issuer}/protocol/openid-connect/auth?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&state=s`;
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function runAll<T>(count: number, send: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (started++ < count) out.push(await send());
    }),
  );
  return out;
}

describe('starting sign-ins', () => {
  it('500 anonymous authorization requests from one IP: the first LIMIT start a sign-in, the rest get 429 with Retry-After and store nothing', async () => {
    const caller = newCaller();
    const before = await interactions();
    const answers = await runAll(500, async () => {
      const res = await fetch(authUrl(), { redirect: 'manual', headers: { ...caller, accept: 'text/html' } });
      await res.text();
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    });
    expect(answers).toHaveLength(500);
    expect(answers.filter((a) => a.status === 303)).toHaveLength(LIMIT);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(500 - LIMIT);
    expect(refused.every((a) => Number(a.retryAfter) > 0)).toBe(true);
    expect((await interactions()) - before).toBe(LIMIT);

    // Another caller is not held back by the first.
    const other = await fetch(authUrl(), { redirect: 'manual', headers: newCaller() });
    expect(other.status).toBe(303);
  }, 60_000);

  it('the device authorization and pushed authorization request endpoints count against the same limit, and refuse as OAuth JSON', async () => {
    const caller = newCaller();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res =
        i % 2
          ? await postForm(`${h.issuer}/protocol/openid-connect/auth/device`, { client_id: device.client_id, scope: 'openid' }, caller)
          : await postForm(
              `${h.issuer}/protocol/openid-connect/ext/par/request`,
              { client_id: confidential.client_id, client_secret: confidential.client_secret, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid' },
              caller,
            );
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    const refused = await postForm(`${h.issuer}/protocol/openid-connect/auth/device`, { client_id: device.client_id, scope: 'openid' }, caller);
    expect(refused).toMatchObject({ status: 429, body: { error: 'temporarily_unavailable' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await fetch(authUrl(), { redirect: 'manual', headers: caller })).status).toBe(429);
  });

  it('a started sign-in expires in minutes, not an hour', async () => {
    expect((await fetch(authUrl(), { redirect: 'manual', headers: newCaller() })).status).toBe(303);
    // The newest interaction (stored ids are hashes of the uid: oidc/artifact-key.ts).
    const { rows } = await db.query<{ left: number }>(
      `SELECT extract(epoch FROM expires_at - now())::int AS left FROM oidc_models WHERE model = 'Interaction' ORDER BY expires_at DESC LIMIT 1`,
    );
    expect(rows[0]!.left).toBeGreaterThan(60);
    expect(rows[0]!.left).toBeLessThanOrEqual(h.config.INTERACTION_TTL);
    expect(h.config.INTERACTION_TTL).toBeLessThanOrEqual(15 * 60);
  });
});

describe('login pages', () => {
  async function started(caller: Record<string, string>) {
    const res = await fetch(authUrl(), { redirect: 'manual', headers: caller });
    return { url: new URL(res.headers.get('location')!, h.url).toString(), cookie: cookiesOf(res), uid: res.headers.get('location')!.split('/').pop()! };
  }
  const challenges = async () => (await redis.keys(`${h.config.REDIS_PREFIX}webauthn:login:*`)).length;

  it('views from one IP past LOGIN_PAGE_MAX_PER_IP get the 429 page with Retry-After', async () => {
    const caller = newCaller();
    const { url, cookie } = await started(caller);
    for (let i = 0; i < LIMIT; i++) expect((await fetch(url, { headers: { ...caller, cookie } })).status).toBe(200);
    const refused = await fetch(url, { headers: { ...caller, cookie } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('role="alert"');
  });

  it('store no passkey challenge; the page’s passkey button asks for one, with the form’s token', async () => {
    const caller = newCaller();
    const { url, cookie, uid } = await started(caller);
    const before = await challenges();
    let page = '';
    for (let i = 0; i < 5; i++) page = await (await fetch(url, { headers: { ...caller, cookie } })).text();
    expect(await challenges()).toBe(before);
    expect(page).not.toContain('"challenge"');

    const form = /<form[^>]*id="passkey-login"[^>]*>/.exec(page)?.[0] ?? '';
    const optionsUrl = /data-options-url="([^"]+)"/.exec(form)?.[1];
    expect(optionsUrl).toBe(`/auth/realms/public/login-actions/${uid}/passkey-options`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const ask = (body: string) =>
      fetch(new URL(optionsUrl!, h.url), {
        method: 'POST',
        headers: { ...caller, cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        body,
      });
    expect((await ask('csrf=forged')).status).toBe(400);
    expect(await challenges()).toBe(before);
    const options = await ask(`csrf=${encodeURIComponent(csrf)}`);
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({ challenge: expect.any(String), userVerification: 'required' });
    expect(await redis.exists(`${h.config.REDIS_PREFIX}webauthn:login:${uid}`)).toBe(1);
  });
});

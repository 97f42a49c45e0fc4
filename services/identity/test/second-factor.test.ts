import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Browser, parseForms } from '@hush/testing';
import { confirmEnrolment, startEnrolment, verifySecondFactor } from '../src/login/second-factor.js';
import { secondFactorDeps } from '../src/login/index.js';
import { codeAt } from '../src/login/totp.js';
import { authorizationUrl, clientConfig } from './flows.js';
import { bootstrapAdmin, createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * The sign-in's second step over HTTP: a person with TOTP gives a code after the password; wrong
 * and reused codes are refused, a recovery code works once, wrong codes are limited per person; a
 * member of an organization that requires a second factor sets one up before the sign-in
 * completes; an administrator lists and removes credentials through the admin API.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';
const MAX_FAILURES = 3;

let h: Harness;
let redis: Redis;
let admin: string;

beforeAll(async () => {
  h = await startIdentity({ SECOND_FACTOR_MAX_FAILURES: String(MAX_FAILURES) });
  redis = new Redis(h.config.REDIS_URL);
  admin = await bootstrapAdmin(h, `https://secrets-${randomBytes(3).toString('hex')}.example.com/api/v1`);
}, 60_000);
afterAll(async () => {
  redis.disconnect();
  await h?.close();
});

const adminCall = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${h.url}/auth/admin/realms/public${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
};

/** A person with a password and, unless `totp` is false, a TOTP credential enrolled a step ago; its secret and recovery codes. */
async function person(opts: { totp?: boolean } = {}) {
  const username = `p-${randomBytes(4).toString('hex')}`;
  const user = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD);
  if (opts.totp === false) return { username, id: user.id, secret: '', codes: [] as string[] };
  const deps = secondFactorDeps(h.config, h.identity.context, redis).secondFactor;
  const enrolment = await startEnrolment(deps, user.id, username);
  const secret = enrolment.secretText.replace(/ /g, '');
  // Enrolled with the previous step's code, so the current one is still unused.
  const codes = await confirmEnrolment(deps, { userId: user.id, binding: user.id, pending: enrolment.pending, code: codeAt(secret, Date.now() - 30_000) });
  return { username, id: user.id, secret, codes: codes as string[] };
}

/** A new sign-in at a fresh client: its login page. */
async function loginPage() {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
  const browser = new Browser(url.origin);
  return { browser, login: await browser.navigate(url.toString()) };
}

/** A new sign-in, up to the page after the password. */
async function afterPassword(username: string) {
  const { browser, login } = await loginPage();
  const step = await browser.submit(login.html, 0, { username, password: PASSWORD });
  return { browser, login, step };
}

const isConsent = (html: string) => html.includes('<h1>Allow ');

describe('the second step at sign-in', () => {
  it('a person with TOTP is asked for a code after the password; a wrong code is refused, the current one completes the sign-in', async () => {
    const p = await person();
    const { browser, step } = await afterPassword(p.username);
    expect(step.res.status).toBe(200);
    expect(step.html).toContain('name="code"');
    expect(isConsent(step.html)).toBe(false);
    // The page names the account and the wrong codes it may still take.
    expect(step.html).toContain(`Signing in as <strong>${p.username}</strong>`);
    const left = (html: string) => Number(/(\d+) attempts? left/.exec(html)?.[1]);
    expect(left(step.html)).toBeGreaterThan(1);

    const current = codeAt(p.secret, Date.now());
    const wrong = String((Number(current) + 500_000) % 1_000_000).padStart(6, '0');
    const refused = await browser.submit(step.html, 0, { code: wrong });
    expect(refused.res.status).toBe(401);
    expect(refused.html).toContain('wrong or was already used');
    expect(left(refused.html)).toBe(left(step.html) - 1);

    const done = await browser.submit(refused.html, 0, { code: current });
    expect(isConsent(done.html)).toBe(true);
  });

  it('a code already used is refused in the next sign-in, within its window', async () => {
    const p = await person();
    const code = codeAt(p.secret, Date.now());
    const first = await afterPassword(p.username);
    expect(isConsent((await first.browser.submit(first.step.html, 0, { code })).html)).toBe(true);
    const second = await afterPassword(p.username);
    const reused = await second.browser.submit(second.step.html, 0, { code });
    expect(reused.res.status).toBe(401);
  });

  it('a recovery code completes one sign-in, then never again; typing ignores case and spaces', async () => {
    const p = await person();
    const [code] = p.codes as [string];
    const first = await afterPassword(p.username);
    expect(isConsent((await first.browser.submit(first.step.html, 0, { code: ` ${code.toUpperCase().replace('-', ' ')} ` })).html)).toBe(true);
    const second = await afterPassword(p.username);
    expect((await second.browser.submit(second.step.html, 0, { code })).res.status).toBe(401);
  });

  it('past the limit of wrong codes, even the right code is refused with 429 and Retry-After', async () => {
    const p = await person();
    const { browser, step } = await afterPassword(p.username);
    let page = step;
    for (let i = 0; i < MAX_FAILURES; i++) {
      page = await browser.submit(page.html, 0, { code: '000000' === codeAt(p.secret, Date.now()) ? '111111' : '000000' });
      expect(page.res.status).toBe(401);
    }
    // Another browser does not get a fresh allowance: the count is the person's.
    const other = await afterPassword(p.username);
    const blocked = await other.browser.submit(other.step.html, 0, { code: codeAt(p.secret, Date.now()) });
    expect(blocked.res.status).toBe(429);
    expect(Number(blocked.res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a code form without the password step before it is sent back to sign in', async () => {
    const p = await person();
    const { browser, login } = await loginPage();
    const form = parseForms(login.html)[0] as { action: string; hidden: Record<string, string> };
    const res = await browser.navigate(form.action.replace(/\/login$/, '/otp'), { ...form.hidden, code: codeAt(p.secret, Date.now()) });
    expect(res.res.status).toBe(400);
    expect(res.html).toContain('name="password"');
  });

  it('a person disabled between the password and the code is not signed in', async () => {
    const p = await person();
    const { browser, step } = await afterPassword(p.username);
    expect((await adminCall('PUT', `/users/${p.id}`, { enabled: false })).status).toBe(204);
    const refused = await browser.submit(step.html, 0, { code: codeAt(p.secret, Date.now()) });
    expect(refused.res.status).toBe(401);
    expect(refused.html).toContain('name="password"');
  });

  it('a person without a second factor signs in with the password alone', async () => {
    const p = await person({ totp: false });
    expect(isConsent((await afterPassword(p.username)).step.html)).toBe(true);
  });
});

describe('codes used at the same moment', () => {
  it('of twenty concurrent checks of one TOTP code, one passes; of twenty of one recovery code, one passes', async () => {
    const p = await person();
    const deps = secondFactorDeps(h.config, h.identity.context, redis).secondFactor;
    const code = codeAt(p.secret, Date.now());
    const totp = await Promise.all(Array.from({ length: 20 }, () => verifySecondFactor(deps, p.id, code)));
    expect(totp.filter((r) => r === 'otp')).toHaveLength(1);
    const recovery = await Promise.all(Array.from({ length: 20 }, () => verifySecondFactor(deps, p.id, p.codes[1] as string)));
    expect(recovery.filter((r) => r === 'recovery-code')).toHaveLength(1);
  });
});

describe('sign-in with a passkey', () => {
  it('an answer that is no WebAuthn assertion, or one for no challenge, is refused on the login page (401)', async () => {
    const { browser, login } = await loginPage();
    const forms = parseForms(login.html);
    const passkeyForm = forms.find((f) => f.action.endsWith('/passkey')) as { action: string; hidden: Record<string, string> };
    expect(passkeyForm).toBeDefined();
    expect(login.html).toContain('Signing in with a passkey needs JavaScript.');
    const garbage = await browser.navigate(passkeyForm.action, { ...passkeyForm.hidden, response: 'not json' });
    expect(garbage.res.status).toBe(401);
    expect(garbage.html).toContain('The passkey was not accepted');
    const forged = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    };
    const again = await browser.navigate(passkeyForm.action, { ...passkeyForm.hidden, response: JSON.stringify(forged) });
    expect(again.res.status).toBe(401);
  });

  it('the browser script is served from our origin, cacheable, as JavaScript', async () => {
    const res = await fetch(`${h.issuer}/resources/webauthn.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await res.text()).toContain('SimpleWebAuthnBrowser');
  });
});

describe('an organization that requires a second factor', () => {
  it('sends a member without one to set up TOTP before the sign-in completes, shows ten recovery codes once, then asks for codes', async () => {
    const org = await adminCall('POST', '/organizations', { name: `Org ${randomBytes(3).toString('hex')}`, attributes: { 'hush.second-factor.required': ['true'] } });
    expect(org.status).toBe(201);
    const orgs = (await adminCall('GET', '/organizations?max=-1')).body as { id: string; attributes: Record<string, string[]> }[];
    const created = orgs.find((o) => o.attributes['hush.second-factor.required']?.[0] === 'true');
    expect(created).toBeDefined();
    const p = await person({ totp: false });
    expect((await adminCall('POST', `/organizations/${created!.id}/members`, p.id)).status).toBe(201);

    const { browser, step } = await afterPassword(p.username);
    expect(step.html).toContain('Your organization requires a second step');
    const secret = (/id="totp-secret">([A-Z2-7 ]+)</.exec(step.html)?.[1] ?? '').replace(/ /g, '');
    expect(secret).toHaveLength(32);
    expect(step.html).toContain('<svg role="img"');

    const wrong = await browser.submit(step.html, 0, { code: '12345' });
    expect(wrong.res.status).toBe(400);
    // A wrong code gets a new key to scan: the one shown before is of no use any more.
    const secret2 = (/id="totp-secret">([A-Z2-7 ]+)</.exec(wrong.html)?.[1] ?? '').replace(/ /g, '');
    const enrolled = await browser.submit(wrong.html, 0, { code: codeAt(secret2, Date.now() - 30_000) });
    const codes = [...enrolled.html.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(isConsent((await browser.submit(enrolled.html, 0, {})).html)).toBe(true);

    const next = await afterPassword(p.username);
    expect(next.step.html).toContain('name="code"');
    expect(isConsent((await next.browser.submit(next.step.html, 0, { code: codeAt(secret2, Date.now()) })).html)).toBe(true);
  });
});

describe('the admin API’s credentials of a user', () => {
  it('lists the password and the TOTP credential without secrets; removing the TOTP resets the second factor; the password stays', async () => {
    const p = await person();
    const list = (await adminCall('GET', `/users/${p.id}/credentials`)).body as { id: string; type: string }[];
    expect(list.map((c) => c.type)).toEqual(['password', 'otp']);
    expect(JSON.stringify(list)).not.toContain(p.secret);

    const password = list.find((c) => c.type === 'password')!;
    expect((await adminCall('DELETE', `/users/${p.id}/credentials/${password.id}`)).status).toBe(400);
    const otp = list.find((c) => c.type === 'otp')!;
    expect((await adminCall('DELETE', `/users/${p.id}/credentials/${otp.id}`)).status).toBe(204);
    expect((await adminCall('DELETE', `/users/${p.id}/credentials/${otp.id}`)).status).toBe(404);
    expect(((await adminCall('GET', `/users/${p.id}/credentials`)).body as { type: string }[]).map((c) => c.type)).toEqual(['password']);

    // The recovery codes went with it, and the sign-in needs the password alone.
    const { step } = await afterPassword(p.username);
    expect(isConsent(step.html)).toBe(true);
  });

  it('an unknown user or credential is 404', async () => {
    const p = await person({ totp: false });
    expect((await adminCall('GET', `/users/00000000-0000-4000-8000-000000000000/credentials`)).status).toBe(404);
    expect((await adminCall('DELETE', `/users/${p.id}/credentials/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});

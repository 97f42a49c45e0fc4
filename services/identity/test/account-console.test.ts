import request from 'supertest';
import * as oidc from 'openid-client';
import { Browser, parseForms } from '@hush/testing';
import { authorize, clientConfig } from './flows.js';
import { refreshGrant, startIdentity, type Harness } from './harness.js';

const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:9/callback';
const APP_ORIGIN = 'http://127.0.0.1:9';

let h: Harness;
let n = 0;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.close());

/** A fresh user (its own sessions and grants) and its username. */
async function newUser(email?: string) {
  const username = `erin${++n}`;
  const user = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD, ...(email ? ['--email', email] : []));
  return { username, id: user.id };
}

/** Signs `username` in to the account console in a fresh browser; returns the browser on `path`. */
async function consoleAs(username: string, path = `${ACCOUNT}/`, password = PASSWORD) {
  const browser = new Browser(h.url);
  const login = await browser.navigate(path);
  const page = await browser.submit(login.html, 0, { username, password });
  expect(page.res.status).toBe(200);
  return { browser, page };
}

/** The form of `page` posting to `action`, with its hidden fields. */
function formOf(html: string, action: string) {
  const form = parseForms(html).find((f) => f.action === action);
  if (!form) throw new Error(`no form to ${action}`);
  return form;
}

/** A confidential client with a web origin, and tokens of `username` from the authorization code flow. */
async function appTokens(username: string, extra: string[] = []) {
  const suffix = `${++n}${Date.now().toString(36)}`;
  const app = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--consent-required',
    '--name',
    `App ${suffix}`,
    '--id',
    `app-${suffix}`,
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile,email',
    '--redirect-uri',
    REDIRECT,
    '--web-origin',
    APP_ORIGIN,
    ...extra,
  );
  const config = await clientConfig(h.issuer, app.client_id, app.client_secret);
  const { callback, verifier, state } = await authorize(config, { redirectUri: REDIRECT, scope: 'openid profile email', username, password: PASSWORD });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return { clientId: app.client_id, clientSecret: app.client_secret, tokens, name: `App ${suffix}` };
}

describe('the account console', () => {
  it('shows the profile and saves first name, last name and a new e-mail address, which becomes unverified', async () => {
    const { id, username } = await newUser('erin@example.test');
    await h.identity.context.users.update(id, { emailVerified: true });
    const { browser, page } = await consoleAs(username);
    expect(page.html).toContain('aria-current="page">Profile</a>');
    expect(page.html).toContain('This address is verified.');
    const form = formOf(page.html, `${ACCOUNT}/`);
    const saved = await browser.navigate(form.action, { ...form.hidden, firstName: 'Erin', lastName: 'Example', email: 'erin.new@example.test' });
    expect(saved.url).toBe(`${h.url}${ACCOUNT}/?done=email`);
    expect(saved.html).toContain('value="Erin"');
    expect(saved.html).toContain('This address is not verified.');
    const user = await h.identity.context.users.findById(id);
    expect(user).toMatchObject({ firstName: 'Erin', lastName: 'Example', email: 'erin.new@example.test', emailVerified: false });
  });

  it('refuses an invalid e-mail address with the field marked, and saves nothing', async () => {
    const { id, username } = await newUser('keep@example.test');
    const { browser, page } = await consoleAs(username);
    const form = formOf(page.html, `${ACCOUNT}/`);
    const res = await browser.send(form.action, { ...form.hidden, firstName: 'X', lastName: '', email: 'not an address' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('id="email-error"');
    expect(res.text).toContain('aria-invalid="true"');
    expect((await h.identity.context.users.findById(id))?.email).toBe('keep@example.test');
  });

  it('refuses a form without the session CSRF token', async () => {
    const { username } = await newUser();
    const { browser } = await consoleAs(username);
    const res = await browser.send(`${ACCOUNT}/`, { csrf: 'forged', firstName: 'Mallory' });
    expect(res.status).toBe(400);
  });

  it('changes the password only with the current one, and ends the other sessions but not this one', async () => {
    const { username } = await newUser();
    const other = await appTokens(username);
    const { browser } = await consoleAs(username, `${ACCOUNT}/password`);
    const page = await browser.navigate(`${ACCOUNT}/password`);
    const form = formOf(page.html, `${ACCOUNT}/password`);

    const wrong = await browser.send(form.action, { ...form.hidden, current: 'not it at all', password: 'a brand new password', confirm: 'a brand new password' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not correct.');
    const mismatch = await browser.send(form.action, { ...form.hidden, current: PASSWORD, password: 'a brand new password', confirm: 'another one' });
    expect(mismatch.status).toBe(400);

    const done = await browser.navigate(form.action, { ...form.hidden, current: PASSWORD, password: 'a brand new password', confirm: 'a brand new password' });
    expect(done.url).toBe(`${h.url}${ACCOUNT}/password?done=password`);
    expect(done.html).toContain('Your password was changed');
    // The application's refresh token (another session's grant) is refused; the console goes on.
    const refreshed = await refreshGrant(`${h.issuer}/protocol/openid-connect/token`, other, other.tokens.refresh_token as string);
    expect(refreshed.status).toBe(400);
    expect((await browser.send(`${ACCOUNT}/sessions`)).status).toBe(200);
    // The new password signs in; the old one does not.
    await consoleAs(username, `${ACCOUNT}/`, 'a brand new password');
    const old = new Browser(h.url);
    const login = await old.navigate(`${ACCOUNT}/`);
    expect((await old.submit(login.html, 0, { username, password: PASSWORD })).res.status).toBe(401);
  });

  it('counts a wrong current password as a failed sign-in: past the limit, 429 even with the right one', async () => {
    const { username } = await newUser();
    const { browser } = await consoleAs(username, `${ACCOUNT}/password`);
    const form = formOf((await browser.navigate(`${ACCOUNT}/password`)).html, `${ACCOUNT}/password`);
    const attempt = (current: string) => browser.send(form.action, { ...form.hidden, current, password: 'a brand new password', confirm: 'a brand new password' });
    for (let i = 0; i < h.config.LOGIN_MAX_FAILURES; i++) expect((await attempt(`wrong ${i}`)).status).toBe(400);
    const blocked = await attempt(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('lists the applications the person granted access to and revokes one with its tokens', async () => {
    const { username } = await newUser();
    const app = await appTokens(username);
    const { browser } = await consoleAs(username);
    const page = await browser.navigate(`${ACCOUNT}/applications`);
    expect(page.html).toContain(app.name);
    expect(page.html).not.toContain('account-console');
    const revoke = parseForms(page.html).find((f) => f.action === `${ACCOUNT}/applications/revoke` && f.hidden['client'] === app.clientId);
    const after = await browser.navigate(revoke!.action, revoke!.hidden);
    expect(after.url).toBe(`${h.url}${ACCOUNT}/applications?done=revoked`);
    expect(after.html).not.toContain(app.name);
    const refreshed = await refreshGrant(`${h.issuer}/protocol/openid-connect/token`, app, app.tokens.refresh_token as string);
    expect(refreshed.status).toBe(400);
    const userinfo = await request(h.issuer).get('/protocol/openid-connect/userinfo').set('authorization', `Bearer ${app.tokens.access_token}`);
    expect(userinfo.status).toBe(401);
  });

  it('lists the sessions, this one first, and signs out another one, then all', async () => {
    const { username } = await newUser();
    const first = await consoleAs(username);
    const second = await consoleAs(username);
    const page = await first.browser.navigate(`${ACCOUNT}/sessions`);
    const ends = parseForms(page.html).filter((f) => f.action === `${ACCOUNT}/sessions/end`);
    expect(ends).toHaveLength(2);
    expect(page.html.indexOf('This browser')).toBeLessThan(page.html.indexOf('Session started'));
    // The second listed is the other browser's.
    const after = await first.browser.navigate(ends[1]!.action, ends[1]!.hidden);
    expect(after.url).toBe(`${h.url}${ACCOUNT}/sessions?done=ended`);
    expect(parseForms(after.html).filter((f) => f.action === `${ACCOUNT}/sessions/end`)).toHaveLength(1);
    // The other browser's console session ends at its next refresh; its identity session is gone now.
    const again = await second.browser.navigate(`${ACCOUNT}/sign-in`);
    expect(again.html).toContain('Sign in to your Hush account');

    const all = formOf(after.html, `${ACCOUNT}/sessions/end-all`);
    const out = await first.browser.navigate(all.action, all.hidden);
    expect(out.html).toContain('Sign in to your Hush account');
  });

  it('links to the security pages', async () => {
    const { username } = await newUser();
    const { page } = await consoleAs(username);
    expect(page.html).toContain(`href="${ACCOUNT}/security"`);
  });
});

describe("Keycloak's account REST API", () => {
  it('answers the profile to a bearer token of the person, with CORS for the token client’s web origin', async () => {
    const { id, username } = await newUser('rest@example.test');
    const app = await appTokens(username);
    const res = await request(h.url)
      .get(`${ACCOUNT}?referrer=x`)
      .set('accept', 'application/json')
      .set('authorization', `Bearer ${app.tokens.access_token}`)
      .set('origin', APP_ORIGIN);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, username, email: 'rest@example.test', emailVerified: false, attributes: {} });
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');

    const elsewhere = await request(h.url)
      .get(ACCOUNT)
      .set('accept', 'application/json')
      .set('authorization', `Bearer ${app.tokens.access_token}`)
      .set('origin', 'https://evil.example');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight for a registered web origin only', async () => {
    const { username } = await newUser();
    await appTokens(username);
    const ok = await request(h.url).options(ACCOUNT).set('origin', APP_ORIGIN).set('access-control-request-method', 'GET').set('access-control-request-headers', 'authorization');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(ok.headers['access-control-allow-headers']).toMatch(/authorization/i);
    const other = await request(h.url).options(ACCOUNT).set('origin', 'https://evil.example').set('access-control-request-method', 'GET');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a request without a token, or with a token that is not ours', async () => {
    expect((await request(h.url).get(ACCOUNT).set('accept', 'application/json')).status).toBe(401);
    const forged = await request(h.url).get(ACCOUNT).set('accept', 'application/json').set('authorization', 'Bearer eyJhbGciOiJub25lIn0.e30.');
    expect(forged.status).toBe(401);
    expect(forged.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('updates the profile with POST (204) and answers invalid input in Keycloak’s error shapes', async () => {
    const { id, username } = await newUser('post@example.test');
    const app = await appTokens(username);
    const post = (body: object) => request(h.url).post(ACCOUNT).set('authorization', `Bearer ${app.tokens.access_token}`).set('content-type', 'application/json').send(body);

    const ok = await post({ username, firstName: 'Pat', lastName: 'Post', email: 'post2@example.test' });
    expect(ok.status).toBe(204);
    expect(await h.identity.context.users.findById(id)).toMatchObject({ firstName: 'Pat', lastName: 'Post', email: 'post2@example.test', emailVerified: false });

    const one = await post({ email: 'nope' });
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ field: 'email', errorMessage: 'invalidEmailMessage', params: ['email', 'nope'] });

    const two = await post({ username: 'someone-else', email: 'nope' });
    expect(two.status).toBe(400);
    expect(two.body.errors.map((e: { field: string }) => e.field)).toEqual(['username', 'email']);
    expect(two.body.errors[0]).toEqual({ field: 'username', errorMessage: 'error-user-attribute-read-only', params: ['username'] });
  });

  it('answers a body that is not JSON with a JSON 400', async () => {
    const { username } = await newUser();
    const app = await appTokens(username);
    const res = await request(h.url).post(ACCOUNT).set('authorization', `Bearer ${app.tokens.access_token}`).set('content-type', 'application/json').send('{not json');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
  });

  it('a browser asking for HTML still gets the console (sign-in)', async () => {
    const res = await request(h.url).get(`${ACCOUNT}/`).set('accept', 'text/html,application/json;q=0.9');
    expect(res.status).toBe(303);
    expect(res.headers['location']).toContain('/protocol/openid-connect/auth');
  });
});

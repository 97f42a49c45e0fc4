import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Browser, capturingLogger, parseForms, postForm } from '@hush/testing';
import { KeyRing, listen, sha256 } from '@hush/common';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { createSecretsApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { createDb } from '../src/db/knex.js';
import { startWebWithIdentity } from './identity.js';
import type { Harness } from './harness.js';

/**
 * The web app as an OIDC client of the real identity service, through real HTTP: sign-in with
 * authorization code + PKCE, what the callback refuses, CSRF on its forms, sessions shared by
 * replicas, and a session that ends when identity refuses its refresh token.
 */
const PASSWORD = 'correct horse battery staple';
let identity: IdentityHarness;
let h: Harness;
let clientSecret: string;

beforeAll(async () => {
  ({ identity, h, clientSecret } = await startWebWithIdentity());
  await identity.cli('users', 'create', 'wendy', '--password', PASSWORD);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await identity?.close();
});

/** Opens `path` signed out, signs in at identity's login page (and consent), and returns to the callback without following it. */
async function toCallback(path = '/') {
  const browser = new Browser(h.url);
  const start = await browser.navigate(path);
  expect(start.leftTo).toMatch(new RegExp(`^${identity.issuer}/protocol/openid-connect/auth\\?`));
  const auth = new URL(start.leftTo as string);
  const idp = new Browser(identity.url);
  const login = await idp.navigate(auth.toString());
  expect(login.html).toContain('Sign in to Hush');
  let page = await idp.submit(login.html, 0, { username: 'wendy', password: PASSWORD });
  if (!page.leftTo) page = await idp.submit(page.html, 0, {}); // consent, the first time in this identity session
  expect(page.leftTo).toMatch(new RegExp(`^${h.url}/auth/callback\\?`));
  return { browser, auth, callback: page.leftTo as string };
}

async function signIn(path = '/') {
  const { browser, callback } = await toCallback(path);
  const done = await browser.send(callback);
  expect(done.status).toBe(303);
  const landed = await browser.navigate(callback.replace(/.*/, done.headers['location'] as string));
  return { browser, done, landed };
}

it('signs in with the authorization code, PKCE S256, state and nonce, and comes back to the page asked for', async () => {
  const { auth, browser, callback } = await toCallback('/tokens');
  expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
  expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  expect(auth.searchParams.get('state')).toBeTruthy();
  expect(auth.searchParams.get('nonce')).toBeTruthy();
  expect(auth.searchParams.get('scope')).toBe('openid profile secrets:read secrets:write');
  expect(auth.searchParams.get('redirect_uri')).toBe(`${h.url}/auth/callback`);
  const res = await browser.send(callback);
  expect(res.status).toBe(303);
  expect(res.headers['location']).toBe('/tokens');
  const cookies = (res.headers['set-cookie'] as unknown as string[]).join('\n');
  expect(cookies).toMatch(/hush_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax(\n|$)/);
  expect(cookies).not.toMatch(/Secure/); // BASE_URL is http here
  const page = await browser.navigate('/tokens');
  expect(page.res.status).toBe(200);
  expect(page.html).toContain('API tokens');
  expect(page.html).toContain('<span class="note" id="signed-in-as">wendy</span>');
}, 60_000);

it('refuses a tampered state, and a callback without the sign-in cookie (no PKCE verifier)', async () => {
  const tampered = await toCallback();
  const url = new URL(tampered.callback);
  url.searchParams.set('state', `${url.searchParams.get('state')}x`);
  const refused = await tampered.browser.send(url.toString());
  expect(refused.status).toBe(400);
  expect(refused.text).toContain('could not be verified');
  expect(tampered.browser.cookie('hush_session')).toBeUndefined();

  const missing = await toCallback();
  const stranger = new Browser(h.url); // another browser: no sign-in cookie, so no verifier, nonce or state
  const res = await stranger.send(missing.callback);
  expect(res.status).toBe(400);
  expect(res.text).toContain('expired or was started in another browser');
  expect(stranger.cookie('hush_session')).toBeUndefined();
  // The callback is single-use on our side too: the sign-in cookie is cleared by the first attempt.
  expect((await missing.browser.send(missing.callback)).status).toBe(303);
  expect((await missing.browser.send(missing.callback)).status).toBe(400);
}, 60_000);

it('rotates the session at each sign-in and refuses a forged CSRF token', async () => {
  const { browser, landed } = await signIn();
  const first = browser.cookie('hush_session') as string;
  const forms = parseForms(landed.html);
  const share = forms.find((f) => f.action === '/');
  expect(share).toBeDefined();
  const before = await h.db('metadata').count<{ count: string }[]>('* as count').first();
  const forged = await browser.send('/', { csrf: 'A'.repeat(43), secret: 'forged', ttl: '3600' });
  expect(forged.status).toBe(400);
  expect(forged.text).toContain('The form expired or was not sent from this page');
  const after = await h.db('metadata').count<{ count: string }[]>('* as count').first();
  expect(after?.count).toBe(before?.count);
  // The real token works, and shares as the identity username.
  const ok = await browser.send('/', { ...share?.hidden, secret: 'the real one', ttl: '3600', action: 'share' });
  expect(ok.status).toBe(303);
  expect(ok.headers['location']).toMatch(/^\/private\/[0-9a-z]{31}\?created=1$/);
  expect(await h.db('metadata').where({ custid: 'wendy' }).first()).toBeDefined();

  // Signing in again in a browser that holds this session: a new id, and the old session is gone.
  const again = await toCallback();
  const same = new Browser(h.url);
  const res = await same.send(again.callback, undefined, { cookie: `hush_signin=${again.browser.cookie('hush_signin')}; hush_session=${first}` });
  expect(res.status).toBe(303);
  const second = same.cookie('hush_session') as string;
  expect(second).not.toBe(first);
  expect(
    await h
      .db('web_sessions')
      .where({ id_hash: sha256(first) })
      .first(),
  ).toBeUndefined();
}, 60_000);

it('shows the signed-in navigation on a receipt when the browser has a session, and the receipt without one to anybody else', async () => {
  const { browser, landed } = await signIn();
  const share = parseForms(landed.html).find((f) => f.action === '/');
  const shared = await browser.send('/', { ...share?.hidden, secret: 'receipt nav', ttl: '3600', action: 'share' });
  const receipt = (shared.headers['location'] as string).replace(/\?.*/, '');
  const mine = await browser.navigate(receipt);
  expect(mine.res.status).toBe(200);
  expect(mine.html).toContain('<nav aria-label="Main">');
  expect(mine.html).toContain('<span class="note" id="signed-in-as">wendy</span>');
  expect(parseForms(mine.html).map((f) => f.action)).toContain('/auth/sign-out');
  const anybody = await new Browser(h.url).navigate(receipt);
  expect(anybody.res.status).toBe(200);
  expect(anybody.html).toContain('Secret receipt');
  expect(anybody.html).not.toContain('<nav aria-label="Main"');
  const stale = new Browser(h.url);
  const res = await stale.send(receipt, undefined, { cookie: `hush_session=${'A'.repeat(43)}` });
  expect(res.status).toBe(200);
  expect(res.text).not.toContain('<nav aria-label="Main"');
}, 60_000);

it('serves a session on a second replica started against the same database and Redis', async () => {
  const { browser } = await signIn();
  const config = readConfig(h.env);
  const db = createDb(config.DATABASE_URL, 4);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
  await once(redis, 'ready');
  const replica = createSecretsApp(config, { db, redis, logger: capturingLogger('replica').logger });
  const server = await listen(replica.handler, 0, replica.serverOptions);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const other = new Browser(url);
    const cookie = `hush_session=${browser.cookie('hush_session')}`;
    const res = await other.send('/secrets', undefined, { cookie });
    expect(res.status).toBe(200);
    expect(res.text).toContain('My secrets');
    expect((await other.send('/secrets')).status).toBe(303); // and without the cookie, sign-in
  } finally {
    await replica.close();
    server.closeAllConnections();
    server.close();
    await db.destroy();
    redis.disconnect();
  }
}, 60_000);

it('ends the web session at its next refresh when identity has revoked the refresh token', async () => {
  const { browser } = await signIn();
  const id = browser.cookie('hush_session') as string;
  const idHash = sha256(id);
  const row = (await h.db('web_sessions').where({ id_hash: idHash }).first()) as { tokens_sealed: Buffer };
  const keys = KeyRing.of(h.config.MASTER_KEY).derive('hush:secrets:web-session:v1');
  const { refreshToken } = JSON.parse(keys.open(row.tokens_sealed, `web-session:${idHash.toString('hex')}`).toString('utf8')) as { refreshToken: string };
  const revoked = await postForm(
    `${identity.issuer}/protocol/openid-connect/revoke`,
    { token: refreshToken, token_type_hint: 'refresh_token' },
    { authorization: `Basic ${Buffer.from(`hush-secrets-web:${clientSecret}`).toString('base64')}` },
  );
  expect(revoked.status).toBe(200);
  // Still signed in until the access token is due for refresh...
  expect((await browser.send('/secrets')).status).toBe(200);
  // ...which the test brings forward instead of waiting five minutes.
  await h
    .db('web_sessions')
    .where({ id_hash: idHash })
    .update({ access_expires_at: new Date(Date.now() - 1000) });
  const res = await browser.send('/secrets');
  expect(res.status).toBe(303);
  expect(res.headers['location']).toBe('/auth/sign-in?return=%2Fsecrets');
  expect(await h.db('web_sessions').where({ id_hash: idHash }).first()).toBeUndefined();
}, 60_000);

it('refreshes a due access token and keeps the session', async () => {
  const { browser } = await signIn();
  const idHash = sha256(browser.cookie('hush_session') as string);
  await h
    .db('web_sessions')
    .where({ id_hash: idHash })
    .update({ access_expires_at: new Date(Date.now() - 1000) });
  expect((await browser.send('/secrets')).status).toBe(200);
  const row = (await h.db('web_sessions').where({ id_hash: idHash }).first()) as { access_expires_at: Date };
  expect(row.access_expires_at.getTime()).toBeGreaterThan(Date.now());
}, 60_000);

it('signs out here and at identity (id_token_hint, registered post-logout redirect)', async () => {
  const { browser, landed } = await signIn();
  const signOut = parseForms(landed.html).find((f) => f.action === '/auth/sign-out');
  const res = await browser.send('/auth/sign-out', { ...signOut?.hidden });
  expect(res.status).toBe(303);
  const logout = new URL(res.headers['location'] as string);
  expect(`${logout.origin}${logout.pathname}`).toBe(`${identity.issuer}/protocol/openid-connect/logout`);
  expect(logout.searchParams.get('id_token_hint')).toMatch(/^ey/);
  expect(logout.searchParams.get('post_logout_redirect_uri')).toBe(`${h.url}/auth/signed-out`);
  expect(browser.cookie('hush_session')).toBeUndefined();
  const after = await browser.send('/');
  expect(after.status).toBe(303);
  expect(after.headers['location']).toBe('/auth/sign-in?return=%2F');
  expect((await browser.send('/auth/signed-out')).text).toContain('You are signed out');
}, 60_000);

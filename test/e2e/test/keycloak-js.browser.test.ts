import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type Browser, type Page } from 'playwright-core';
import { connectChromium } from './chromium.js';
import { eventually, freePort } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';

/**
 * Keycloak's own browser adapter, keycloak-js (its npm package, unchanged), against Hush in
 * headless Chromium, configured as its documentation tells a Keycloak user: the realm URL and a
 * public client, default init options (so `checkLoginIframe: true`, its session iframe and
 * third-party-cookie check), plus `onLoad: 'login-required'` and `pkceMethod: 'S256'`.
 *
 * The app and Hush are two origins (two ports of 127.0.0.1), so the token and userinfo calls are
 * cross-origin credentialed CORS, but one site, as app.example.com and auth.example.com are: this
 * Chromium blocks third-party cookies (checked: a SameSite=None; Secure cookie set in a frame from
 * another site is not kept), so across sites keycloak-js's own 3p-cookies check would turn the
 * iframe off, exactly as it does against Keycloak.
 */
const PASSWORD = 'correct horse battery staple';
const KEYCLOAK_JS = readFileSync(createRequire(import.meta.url).resolve('keycloak-js'), 'utf8');

let identity: Harness;
let app: Server;
let appOrigin: string;
let browser: Browser;
let clientId: string;

/** The app: one page that starts keycloak-js and records its callbacks in `window.events`. */
function appPage(): string {
  const config = { url: `${new URL(identity.url).origin}/auth`, realm: 'public', clientId };
  return `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><p id="state">starting</p>
<script type="module">
import Keycloak from '/keycloak.js';
const kc = new Keycloak(${JSON.stringify(config)});
window.kc = kc;
window.events = [];
kc.onAuthSuccess = () => window.events.push('authSuccess');
kc.onAuthError = (e) => window.events.push('authError ' + JSON.stringify(e));
kc.onAuthRefreshSuccess = () => window.events.push('refreshSuccess');
kc.onAuthRefreshError = () => window.events.push('refreshError');
kc.onAuthLogout = () => window.events.push('logout');
window.initialized = kc.init({ onLoad: 'login-required', pkceMethod: 'S256' }).then(
  (authenticated) => { document.getElementById('state').textContent = 'authenticated ' + authenticated; return authenticated; },
  (err) => { document.getElementById('state').textContent = 'init failed ' + (err && err.message || JSON.stringify(err)); throw err; },
);
</script></body></html>`;
}

beforeAll(async () => {
  identity = await startIdentity();
  const port = await freePort();
  appOrigin = `http://127.0.0.1:${port}`;
  await identity.cli('users', 'create', 'kate', '--password', PASSWORD, '--email', 'kate@example.com', '--name', 'Kate');
  const client = await identity.cli<{ client_id: string; web_origins: string[] }>(
    'clients',
    'create',
    '--consent-required',
    '--name',
    'Keycloak JS app',
    '--public',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile,email',
    '--redirect-uri',
    `${appOrigin}/`,
    '--redirect-uri',
    `${appOrigin}/blank`,
    '--post-logout-redirect-uri',
    `${appOrigin}/`,
  );
  clientId = client.client_id;
  expect(client.web_origins).toEqual(['+']);

  app = createServer((req, res) => {
    const path = new URL(req.url ?? '/', appOrigin).pathname;
    if (path === '/keycloak.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(KEYCLOAK_JS);
    } else if (path === '/blank') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>blank</title><p>blank</p>');
    } else if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(appPage());
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => app.listen(port, '127.0.0.1', resolve));
  browser = await connectChromium();
});
afterAll(async () => {
  await browser?.close();
  app?.closeAllConnections();
  app?.close();
  await identity?.close();
});

const state = (page: Page) => page.locator('#state').textContent();
const events = (page: Page) => page.evaluate<string[]>('window.events');

/** Opens the app; keycloak-js sends the browser to Hush's login page (and consent, the first time). */
async function openAndSignIn(page: Page, opts: { consent: boolean }) {
  await page.goto(`${appOrigin}/`);
  await page.waitForURL((url) => url.href.startsWith(identity.issuer));
  await page.fill('#username', 'kate');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if (opts.consent) {
    await expect(page.locator('h1').textContent()).resolves.toBe('Allow Keycloak JS app?');
    await page.click('button:has-text("Allow")');
  }
  await page.waitForURL((url) => url.href.startsWith(appOrigin));
  await eventually(async () => ((await state(page)) !== 'starting' ? true : undefined));
}

it('signs in, refreshes, reads userinfo and the profile, signs out without a confirmation page, and sees that sign-out in another tab through its session iframe', async () => {
  const context = await browser.newContext();
  const first = await context.newPage();
  const consoleLines: string[] = [];
  first.on('console', (msg) => consoleLines.push(msg.text()));

  await openAndSignIn(first, { consent: true });
  expect({ state: await state(first), console: consoleLines }).toMatchObject({ state: 'authenticated true' });
  expect(await events(first)).toEqual(['authSuccess']);
  // Its third-party-cookie check passed: the session iframe is on (else it warns and turns it off).
  expect(consoleLines.filter((l) => l.includes('3rd-party cookies'))).toEqual([]);
  const subject = await first.evaluate<string>('window.kc.subject');
  const sid = await first.evaluate<string>('window.kc.sessionId');
  expect(sid).toBeTruthy();

  // A forced refresh: checks the iframe first (session unchanged), then the refresh grant over CORS.
  await expect(first.evaluate<boolean>('window.kc.updateToken(-1)')).resolves.toBe(true);
  expect(await events(first)).toEqual(['authSuccess', 'refreshSuccess']);
  await expect(first.evaluate<Record<string, unknown>>('window.kc.loadUserInfo()')).resolves.toMatchObject({
    sub: subject,
    preferred_username: 'kate',
    email: 'kate@example.com',
  });
  expect(await first.evaluate<boolean>('window.kc.authenticated')).toBe(true);
  // Keycloak's account REST API, cross-origin from the app's registered web origin (CORS included).
  await expect(first.evaluate<Record<string, unknown>>('window.kc.loadUserProfile()')).resolves.toEqual({
    id: subject,
    username: 'kate',
    email: 'kate@example.com',
    emailVerified: false,
    attributes: {},
  });

  // A second tab of the same browser: signed in at once (same session), then signs out there.
  const second = await context.newPage();
  await second.goto(`${appOrigin}/`);
  await eventually(async () => ((await state(second)) === 'authenticated true' ? true : undefined));
  expect(await second.evaluate<string>('window.kc.sessionId')).toBe(sid);
  // logout() with its id_token_hint: signed out at once and back at the app, no confirmation page.
  const logoutPages: number[] = [];
  second.on('response', (res) => {
    if (res.url().startsWith(`${identity.issuer}/protocol/openid-connect/logout`)) logoutPages.push(res.status());
  });
  await second.evaluate('window.kc.logout()');
  await second.waitForURL((url) => url.href.startsWith(appOrigin) && url.pathname === '/' && logoutPages.length > 0);
  expect(logoutPages).toEqual([303, 303]);

  // The first tab's iframe (polled every 5 s by default) reports the change: keycloak-js clears
  // its tokens (onAuthLogout) and, the app being login-required, sends the tab to sign in again.
  await first.waitForURL((url) => url.href.startsWith(identity.issuer), { timeout: 30_000 });
  await expect(first.locator('#username').count()).resolves.toBe(1);
  await context.close();
}, 90_000);

/** In the app's page: frames `src` and resolves with the first message it posts (after `send`, if given). */
const frameAnswer = (page: Page, src: string, send?: string) =>
  page.evaluate<string>(`new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-storage-access-by-user-activation allow-scripts allow-same-origin');
    frame.src = ${JSON.stringify(src)};
    window.addEventListener('message', (e) => { if (e.source === frame.contentWindow) resolve(e.data); });
    ${send === undefined ? '' : `frame.addEventListener('load', () => frame.contentWindow.postMessage(${JSON.stringify(send)}, new URL(frame.src).origin));`}
    setTimeout(() => reject(new Error('no answer from ' + frame.src)), 10000);
    document.body.appendChild(frame);
  })`);

it('its session iframe, framed by the app on another origin, answers as keycloak-js expects (the protocol alone)', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const protocol = `${identity.issuer}/protocol/openid-connect`;
  const auth = new URL(`${protocol}/auth`);
  auth.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: `${appOrigin}/blank`,
    response_type: 'code',
    response_mode: 'fragment',
    scope: 'openid',
    state: 's',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  await page.goto(auth.toString());
  await page.fill('#username', 'kate');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  // kate allowed the app in the first test: remembered for her and this client, so no consent page.
  await page.waitForURL((url) => url.href.startsWith(`${appOrigin}/blank`));
  const sid = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('session_state');
  expect(sid).toBeTruthy();

  await expect(frameAnswer(page, `${protocol}/3p-cookies/step1.html`)).resolves.toBe('supported');
  const status = `${protocol}/login-status-iframe.html`;
  await expect(frameAnswer(page, status, `${clientId} ${sid}`)).resolves.toBe('unchanged');
  await expect(frameAnswer(page, status, `${clientId} another-session`)).resolves.toBe('changed');
  await expect(frameAnswer(page, status, `nobody-at-all ${sid}`)).resolves.toBe('error');

  // Signed out (here in the same tab): the same question now gets "changed".
  await page.goto(`${protocol}/logout`);
  await page.click('button[name=logout]');
  await expect(page.locator('h1').textContent()).resolves.toBe('You are signed out');
  await page.goto(`${appOrigin}/blank`);
  await expect(frameAnswer(page, status, `${clientId} ${sid}`)).resolves.toBe('changed');
  await context.close();
});

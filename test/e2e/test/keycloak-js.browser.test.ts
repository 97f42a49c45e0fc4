import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually, freePort } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';

/**
 * Keycloak's own browser adapter, keycloak-js (its npm package, unchanged), against Hush in
 * headless Chromium, configured as its documentation tells a Keycloak user: the realm URL and a
 * public client, default init options (so `checkLoginIframe: true`, its session iframe and
 * third-party-cookie check), plus `onLoad: 'login-required'` and `pkceMethod: 'S256'`.
 *
 * The app is served from `http://localhost:<port>` and Hush from `http://127.0.0.1:<port>`: two
 * sites, so the token calls are cross-origin credentialed CORS and the iframe is a third-party
 * frame, as for an app and an identity provider on different domains.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
  appOrigin = `http://localhost:${port}`;
  await identity.cli('users', 'create', 'kate', '--password', PASSWORD, '--email', 'kate@example.com', '--name', 'Kate');
  const client = await identity.cli<{ client_id: string; web_origins: string[] }>(
    'clients',
    'create',
    '--name',
    'Keycloak JS app',
    '--public',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile,email',
    '--redirect-uri',
    `${appOrigin}/`,
    '--post-logout-redirect-uri',
    `${appOrigin}/`,
  );
  clientId = client.client_id;
  expect(client.web_origins).toEqual(['+']);

  app = createServer((req, res) => {
    const path = new URL(req.url ?? '/', appOrigin).pathname;
    if (path === '/keycloak.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(KEYCLOAK_JS);
    } else if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(appPage());
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => app.listen(port, 'localhost', resolve));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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

it('signs in, refreshes, reads userinfo, and sees a sign-out in another tab through its session iframe', async () => {
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

  // A second tab of the same browser: signed in at once (same session), then signs out there.
  const second = await context.newPage();
  await second.goto(`${appOrigin}/`);
  await eventually(async () => ((await state(second)) === 'authenticated true' ? true : undefined));
  expect(await second.evaluate<string>('window.kc.sessionId')).toBe(sid);
  await second.evaluate('window.kc.logout()');
  await second.waitForURL((url) => url.href.startsWith(identity.issuer));
  await second.click('button[name=logout]');
  await second.waitForURL((url) => url.href.startsWith(appOrigin));

  // The first tab's iframe (polled every 5 s by default) reports the change.
  await eventually(async () => ((await events(first)).includes('logout') ? true : undefined), 30_000, 250);
  expect(await first.evaluate<boolean>('window.kc.authenticated')).toBe(false);
  await context.close();
}, 90_000);

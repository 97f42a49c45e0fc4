import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { VIEWPORTS, callbackReached, cspViolations, inEveryLook, connectChromium, screenshot } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWithIdentity } from '../../../services/secrets/test/identity.js';

/**
 * Every page of both services in Chromium (Debian's, driven by playwright-core): each loads its
 * stylesheet under the CSP nonce with no CSP violation, in the light and the dark theme, on a
 * 1280 px desktop and a 360 px phone, without sideways scrolling. Screenshots go to
 * test-artifacts/pages/ (git-ignored) for a person to look at.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'pages');
const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';
const VALUE = 'db-password: s3cr3t-Ω-42 and a rather long line that must wrap on a phone screen without scrolling sideways';

/** Background of the body in each theme: the shared stylesheet applied (not the browser's default). */
const BACKGROUND = { light: 'rgb(238, 240, 244)', dark: 'rgb(16, 19, 24)' };

let identity: IdentityHarness;
let secrets: SecretsHarness;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ identity, h: secrets } = await startWithIdentity());
  browser = await connectChromium();
  // Here, not in the test: a retry of the test finds her there.
  await identity.cli('users', 'create', 'dora', '--password', PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await secrets?.close();
  await identity?.close();
});

/** A page that records every CSP violation, from the console and from `securitypolicyviolation` events. */
async function openPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
  const violations = cspViolations(page);
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  // A string, as this project's TypeScript has no DOM types: it runs in the page.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => { void window.reportViolation(e.violatedDirective + ' blocked ' + e.blockedURI); });`,
  });
  return { page, violations };
}

/** Checks the page as it stands in both themes and both widths, and saves its screenshots (desktop light, phone dark). */
async function inspect(page: Page, violations: string[], name: string) {
  await inEveryLook(page, async (width, scheme) => {
    const look = await page.evaluate<{ background: string; scrollWidth: number; main: number }>(
      `({ background: getComputedStyle(document.body).backgroundColor, scrollWidth: document.documentElement.scrollWidth, main: document.querySelectorAll('main').length })`,
    );
    expect({ name, scheme, background: look.background }).toEqual({ name, scheme, background: BACKGROUND[scheme] });
    expect(look.main).toBe(1);
    expect(look.scrollWidth).toBeLessThanOrEqual(VIEWPORTS[width].width);
    await screenshot(page, ARTIFACTS, name, width, scheme);
  });
  expect(violations).toEqual([]);
}

it('identity: login (with its error), consent, sign-out and error pages', async () => {
  const client = await identity.cli<{ client_id: string }>(
    'clients',
    'create',
    '--consent-required',
    '--name',
    'Dora’s <Notes> app',
    '--grants',
    'authorization_code',
    '--scopes',
    'openid,secrets:read',
    '--redirect-uri',
    REDIRECT,
  );
  const verifier = randomBytes(32).toString('base64url');
  const auth = new URL(`${identity.issuer}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid secrets:read',
    state: 'xyz',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();

  const { page, violations } = await openPage();
  await page.goto(auth.toString());
  await expect(page.locator('h1').textContent()).resolves.toBe('Sign in to Dora’s <Notes> app');
  await inspect(page, violations, 'identity-1-login');

  await page.fill('#username', 'dora');
  await page.fill('#password', 'wrong password');
  await page.click('button[type=submit]:has-text("Sign in")');
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('Invalid username or password');
  await expect(page.locator('h1').textContent()).resolves.toBe('Sign in to Dora’s <Notes> app');
  await inspect(page, violations, 'identity-2-login-failed');

  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  await expect(page.locator('h1').textContent()).resolves.toBe('Allow Dora’s <Notes> app?');
  await inspect(page, violations, 'identity-3-consent');

  const callback = await callbackReached(page, REDIRECT, () => page.click('button:has-text("Allow")'));
  expect(callback.searchParams.get('code')).toBeTruthy();
  expect(violations).toEqual([]);

  await page.goto(`${identity.issuer}/protocol/openid-connect/logout`);
  await expect(page.locator('h1').textContent()).resolves.toBe('Sign out?');
  await inspect(page, violations, 'identity-4-logout');
  await page.click('button[name=logout]');
  await expect(page.locator('h1').textContent()).resolves.toBe('You are signed out');
  await inspect(page, violations, 'identity-5-signed-out');

  await page.goto(`${identity.issuer}/login-actions/expired-interaction`);
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('expired');
  await inspect(page, violations, 'identity-6-error');

  await page.goto(`${identity.issuer}/protocol/openid-connect/auth?client_id=nobody&response_type=code&scope=openid`);
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('invalid_client');
  await inspect(page, violations, 'identity-7-oauth-error');
}, 90_000);

it('secrets: reveal, revealed, receipt and an error page', async () => {
  const { auth } = await secrets.account();
  const share = await secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: VALUE, passphrase: 'blue tulip', recipient: 'erin@example.com' });
  expect(share.status).toBe(200);
  const { secret_key: secretKey, metadata_key: metadataKey } = share.body as { secret_key: string; metadata_key: string };

  const { page, violations } = await openPage();
  await page.goto(`${secrets.url}/private/${metadataKey}`);
  await expect(page.locator('#state').getAttribute('data-state')).resolves.toBe('new');
  await inspect(page, violations, 'secrets-1-receipt');

  await page.goto(`${secrets.url}/secret/${secretKey}`);
  await inspect(page, violations, 'secrets-2-reveal');
  await page.fill('#passphrase', 'wrong guess');
  await page.click('#reveal');
  await expect(page.locator('[role=alert]').textContent()).resolves.toMatch(/passphrase/i);
  await inspect(page, violations, 'secrets-3-wrong-passphrase');

  await page.fill('#passphrase', 'blue tulip');
  await page.click('#reveal');
  await expect(page.locator('#value').inputValue()).resolves.toBe(VALUE);
  await expect(page.locator('#copy').isVisible()).resolves.toBe(true); // the nonce'd script ran
  await inspect(page, violations, 'secrets-4-revealed');

  await page.goto(`${secrets.url}/secret/${secretKey}`);
  await expect(page.locator('h1').textContent()).resolves.toContain('not available');
  await inspect(page, violations, 'secrets-5-gone');

  await page.goto(`${secrets.url}/private/${metadataKey}`);
  await expect(page.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  await inspect(page, violations, 'secrets-6-receipt-received');

  await page.goto(`${secrets.url}/secret/%ff`);
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('not valid');
  await inspect(page, violations, 'secrets-7-error');

  // Burning from the receipt: the form and its redirect stay within the CSP.
  const second = await secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'to burn' });
  await page.goto(`${secrets.url}/private/${(second.body as { metadata_key: string }).metadata_key}`);
  await page.click('#burn');
  await expect(page.locator('#state').getAttribute('data-state')).resolves.toBe('burned');
  await inspect(page, violations, 'secrets-8-burned');
}, 90_000);

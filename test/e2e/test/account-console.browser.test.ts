import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { type Browser, type Page } from 'playwright-core';
import { Browser as HttpBrowser } from '@hush/testing';
import { cspViolations, inspectPage, connectChromium, VIEWPORTS } from './chromium.js';
import { authorize, clientConfig } from '../../../services/identity/test/flows.js';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';

/**
 * The account console in Chromium, as a person uses it: signs in through identity's login page,
 * edits the profile (an invalid address first), revokes an application, signs out another
 * session, changes the password, and signs out. Every page passes inspectPage() (axe-core, no
 * sideways scrolling at 360 px, no CSP violation, screenshots (1280 px light, 360 px dark) in
 * test-artifacts/account/).
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'account');
const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a new and longer passphrase';
const REDIRECT = 'http://127.0.0.1:9/callback';

let identity: Harness;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  identity = await startIdentity();
  await identity.cli('users', 'create', 'nora', '--password', PASSWORD, '--email', 'nora@example.com');
  browser = await connectChromium();
});
afterAll(async () => {
  await browser?.close();
  await identity?.close();
});

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);
const h1 = (page: Page) => page.locator('h1').textContent();

it('profile, applications, sessions and password in the account console, every page accessible at 1280 and 360 px in both themes', async () => {
  // An application nora granted access to, and a second session of hers (another browser).
  const app = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'Nora’s <Notes>',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile,email',
    '--redirect-uri',
    REDIRECT,
  );
  const config = await clientConfig(identity.issuer, app.client_id, app.client_secret);
  const granted = await authorize(config, { redirectUri: REDIRECT, scope: 'openid profile email', username: 'nora', password: PASSWORD });
  const tokens = await oidc.authorizationCodeGrant(config, granted.callback, { pkceCodeVerifier: granted.verifier, expectedState: granted.state });
  const elsewhere = new HttpBrowser(identity.url);
  const login = await elsewhere.navigate(`${ACCOUNT}/`);
  await elsewhere.submit(login.html, 0, { username: 'nora', password: PASSWORD });

  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  const violations = cspViolations(page);

  // Sign in: the console sends the browser through identity's login page and back, no consent.
  await page.goto(`${identity.url}${ACCOUNT}`);
  await expect(h1(page)).resolves.toBe('Sign in to your Hush account');
  await page.fill('#username', 'nora');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  await page.waitForURL(`${identity.url}${ACCOUNT}`);
  await expect(h1(page)).resolves.toBe('Profile');
  await inspect(page, violations, 'account-1-profile');

  // Profile: an invalid address is refused with the field marked, then a valid edit is saved.
  await page.fill('#firstName', 'Nora');
  await page.fill('#lastName', 'Example-Longname-That-Wraps-On-A-Phone');
  await page.fill('#email', 'nora@');
  // The browser's own check of type=email would stop the form: this test is of the server's.
  await page.evaluate(`document.querySelector('#email').type = 'text'`);
  await page.click('button:has-text("Save")');
  await expect(page.locator('#email-error').textContent()).resolves.toContain('valid e-mail');
  await expect(page.locator('#email').getAttribute('aria-invalid')).resolves.toBe('true');
  await inspect(page, violations, 'account-2-profile-invalid');
  await page.fill('#email', 'nora.new@example.com');
  await page.click('button:has-text("Save")');
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('not verified');
  await expect(page.locator('#firstName').inputValue()).resolves.toBe('Nora');
  await inspect(page, violations, 'account-3-profile-saved');

  // Applications: the one granted, revoked with its tokens.
  await page.click('nav a:has-text("Applications")');
  await expect(h1(page)).resolves.toBe('Applications');
  await expect(page.locator('ul.items h2').textContent()).resolves.toBe('Nora’s <Notes>');
  await inspect(page, violations, 'account-4-applications');
  await page.click('button:has-text("Revoke access")');
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('revoked');
  await expect(page.locator('ul.items').count()).resolves.toBe(0);
  await inspect(page, violations, 'account-5-applications-revoked');
  const refreshed = await fetch(`${identity.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: app.client_id, client_secret: app.client_secret }),
  });
  expect(refreshed.status).toBe(400);

  // Sessions (this browser, the other browser, the one the application was granted in): this one
  // first; another one signed out.
  await page.click('nav a:has-text("Sessions")');
  await expect(page.locator('ul.items > li').count()).resolves.toBe(3);
  await expect(page.locator('ul.items > li h2').first().textContent()).resolves.toBe('This browser');
  await inspect(page, violations, 'account-6-sessions');
  // The other browser's: the session signed in to the console that is not this one.
  await page.locator('ul.items > li', { hasText: 'Account Console' }).nth(1).locator('button').click();
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('signed out');
  await expect(page.locator('ul.items > li').count()).resolves.toBe(2);
  expect((await elsewhere.navigate(`${ACCOUNT}/sign-in`)).html).toContain('Sign in to your Hush account');

  // Password: the current one is required; then changed.
  await page.click('nav a:has-text("Password")');
  await page.fill('#current', 'not my password');
  await page.fill('#password', NEW_PASSWORD);
  await page.fill('#confirm', NEW_PASSWORD);
  await page.click('button:has-text("Change password")');
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('current password is not correct');
  await inspect(page, violations, 'account-7-password-refused');
  await page.fill('#current', PASSWORD);
  await page.fill('#password', NEW_PASSWORD);
  await page.fill('#confirm', NEW_PASSWORD);
  await page.click('button:has-text("Change password")');
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('Your password was changed');
  await inspect(page, violations, 'account-8-password-changed');

  // Keyboard: Tab goes through the header (the product's name, Sign out), then the navigation's first link.
  const focused = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    focused.push(await page.evaluate<string>('document.activeElement.textContent'));
  }
  expect(focused).toEqual(['Hush', 'Sign out', 'Profile']);

  // Sign out: identity's session ends without a confirmation page; a page says so, and its link asks to sign in.
  await page.click('header.masthead #sign-out');
  await expect(h1(page)).resolves.toBe('You are signed out');
  await inspect(page, violations, 'account-9-signed-out');
  await page.click('a:has-text("Sign in again")');
  await expect(h1(page)).resolves.toBe('Sign in to your Hush account');
  await page.fill('#username', 'nora');
  await page.fill('#password', NEW_PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  await expect(h1(page)).resolves.toBe('Profile');
  await context.close();
}, 180_000);

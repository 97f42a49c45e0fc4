import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { cspViolations, inspectPage, connectChromium } from './chromium.js';
import { eventually, postForm } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';
import { codeAt } from '../../../services/identity/src/login/totp.js';

/**
 * Two-factor sign-in and passkeys in Chromium, through the account console:
 * - a person sets up an authenticator app (QR code and key), keeps the recovery codes, signs out,
 *   and signs in with the password and the current code; a wrong code, a reused code and a reused
 *   recovery code are refused; a recovery code works once;
 * - another registers a passkey with Chromium's virtual authenticator (DevTools protocol WebAuthn
 *   domain) and signs in with it alone;
 * - a member of an organization that requires a second factor sets up TOTP during the sign-in.
 * Every page passes inspectPage (axe-core, 360 px, CSP); screenshots in test-artifacts/second-factor/.
 * The origin is http://localhost:<port>: a WebAuthn relying party is a domain, never an IP address.
 */
const PASSWORD = 'correct horse battery staple';
const ACCOUNT = '/auth/realms/public/account';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'second-factor');

let identity: Harness;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  identity = await startIdentity({}, {}, 'localhost');
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await identity?.close();
});

const h1 = (page: Page) => page.locator('h1').textContent();

async function signInWithPassword(page: Page, username: string) {
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
}

/** The console's sign-out, confirming on identity's page if it asks; ends on the login page the console sends to. */
async function signOut(page: Page) {
  await page.click('header.masthead #sign-out');
  if ((await h1(page)) === 'Sign out?') await page.click('button:has-text("Yes, sign me out")');
  await expect(h1(page)).resolves.toBe('You are signed out');
  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await expect(page.locator('#password').count()).resolves.toBe(1);
}

it('a person enrols TOTP in the account console and signs in with password and code; wrong and reused codes fail; a recovery code works once', async () => {
  await identity.cli('users', 'create', 'tina', '--password', PASSWORD);
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);

  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await inspectPage(page, violations, 'login', ARTIFACTS);
  await signInWithPassword(page, 'tina');
  await expect(h1(page)).resolves.toBe('Security');
  await inspectPage(page, violations, 'security-empty', ARTIFACTS);

  await page.click('a:has-text("Set up an authenticator app")');
  await expect(h1(page)).resolves.toBe('Set up an authenticator app');
  await expect(page.locator('figure.qr svg').count()).resolves.toBe(1);
  await inspectPage(page, violations, 'totp-enrolment', ARTIFACTS);
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
  // Confirmed with the previous step's code, so the current one is still unused for the sign-in below.
  await page.fill('#code', codeAt(secret, Date.now() - 30_000));
  await page.click('button:has-text("Confirm")');
  await expect(h1(page)).resolves.toBe('Authenticator app set up');
  const recovery = await page.locator('#recovery-codes code').allTextContents();
  expect(recovery).toHaveLength(10);
  await inspectPage(page, violations, 'recovery-codes', ARTIFACTS);

  // Signed out; signing in now takes the password and a code.
  await signOut(page);
  await signInWithPassword(page, 'tina');
  await expect(page.locator('#code').count()).resolves.toBe(1);
  await inspectPage(page, violations, 'second-step', ARTIFACTS);
  const code = codeAt(secret, Date.now());
  const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
  await page.fill('#code', wrong);
  await page.click('button:has-text("Verify")');
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('wrong or was already used');
  await inspectPage(page, violations, 'second-step-error', ARTIFACTS);
  await page.fill('#code', code);
  await page.click('button:has-text("Verify")');
  await expect(h1(page)).resolves.toBe('Security');

  // The same code again, in the next sign-in: refused; then a recovery code gets in.
  await signOut(page);
  await signInWithPassword(page, 'tina');
  await page.fill('#code', code);
  await page.click('button:has-text("Verify")');
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('wrong or was already used');
  await page.fill('#code', recovery[0] as string);
  await page.click('button:has-text("Verify")');
  await expect(h1(page)).resolves.toBe('Security');
  await expect(page.locator('main').textContent()).resolves.toContain('9 of 10 recovery codes left');
  await inspectPage(page, violations, 'security-totp', ARTIFACTS);

  // The recovery code is spent.
  await signOut(page);
  await signInWithPassword(page, 'tina');
  await page.fill('#code', recovery[0] as string);
  await page.click('button:has-text("Verify")');
  await expect(page.locator('[role=alert]').textContent()).resolves.toContain('wrong or was already used');
  expect(violations).toEqual([]);
  await context.close();
}, 120_000);

it('another person registers a passkey with the virtual authenticator and signs in with it alone', async () => {
  const pavel = await identity.cli<{ id: string }>('users', 'create', 'pavel', '--password', PASSWORD);
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await signInWithPassword(page, 'pavel');
  await expect(h1(page)).resolves.toBe('Security');
  // With JavaScript, the button shows and the note saying it is needed does not.
  await expect(page.locator('button:has-text("Add a passkey")').isVisible()).resolves.toBe(true);
  await page.fill('#passkey-name', 'Test laptop');
  await page.click('button:has-text("Add a passkey")');
  await page.waitForURL(/\?done=passkey-added$/);
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('The passkey was added.');
  await expect(page.locator('ul.items').textContent()).resolves.toContain('Test laptop');
  await inspectPage(page, violations, 'security-passkey', ARTIFACTS);

  await signOut(page);
  await expect(page.locator('button:has-text("Sign in with a passkey")').isVisible()).resolves.toBe(true);
  // The ceremony runs in the page's script, which then submits the form: wait for where it lands.
  await page.click('button:has-text("Sign in with a passkey")');
  await page.waitForURL(`${identity.url}${ACCOUNT}/security`);
  await expect(h1(page)).resolves.toBe('Security');
  // Pavel's own page (his passkey listed), reached without a password or a code.
  await expect(page.locator('ul.items').textContent()).resolves.toContain('Test laptop');
  const logins = await eventually(async () => {
    const events = await identity.identity.context.eventsRepository.userEvents({ user: pavel.id, types: ['LOGIN'] });
    return events.some((e) => e.details?.['credential_type'] === 'webauthn-passwordless') ? events : undefined;
  });
  expect(logins.map((e) => e.details?.['credential_type'])).toEqual(['webauthn-passwordless', 'password']);
  expect(violations).toEqual([]);
  await context.close();
}, 120_000);

it('a member of an organization that requires a second factor sets one up before the sign-in completes', async () => {
  const boot = await identity.cli<{ admin_client: { client_secret: string } }>('bootstrap', '--secrets-audience', 'https://secrets.example.com/api/v1');
  const token = await postForm(`${identity.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    client_id: 'hush-admin',
    client_secret: boot.admin_client.client_secret,
  });
  const admin = { authorization: `Bearer ${String(token.body['access_token'])}`, 'content-type': 'application/json' };
  const created = await fetch(`${identity.url}/auth/admin/realms/public/organizations`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'Vault keepers', attributes: { 'hush.second-factor.required': ['true'] } }),
  });
  expect(created.status).toBe(201);
  const orgId = (created.headers.get('location') ?? '').split('/').pop() as string;
  const user = await identity.cli<{ id: string }>('users', 'create', 'vera', '--password', PASSWORD);
  expect((await fetch(`${identity.url}/auth/admin/realms/public/organizations/${orgId}/members`, { method: 'POST', headers: admin, body: JSON.stringify(user.id) })).status).toBe(
    201,
  );

  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);
  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await signInWithPassword(page, 'vera');
  await expect(h1(page)).resolves.toBe('Set up a second step');
  await inspectPage(page, violations, 'required-enrolment', ARTIFACTS);
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
  await page.fill('#code', codeAt(secret, Date.now()));
  await page.click('button:has-text("Confirm")');
  await expect(h1(page)).resolves.toBe('Your authenticator app is set up');
  await expect(page.locator('#recovery-codes code').count()).resolves.toBe(10);
  await inspectPage(page, violations, 'required-enrolment-codes', ARTIFACTS);
  await page.click('button:has-text("Continue to")');
  await expect(h1(page)).resolves.toBe('Security');
  await expect(page.locator('main').textContent()).resolves.toContain('10 of 10 recovery codes left');
  expect(violations).toEqual([]);
  await context.close();
}, 120_000);

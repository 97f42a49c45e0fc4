import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { postForm } from '@hush/testing';
import { VIEWPORTS, cspViolations, inspectPage, connectChromium } from './chromium.js';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * Issue 25's admin console journey in Chromium: an administrator (a person holding realm-admin)
 * signs in to the admin console through identity's own login page, creates an organization, a
 * user in it and a confidential client whose secret is handed over to its owner's e-mail address;
 * the test reads that e-mail at the real SMTP server, opens the one-time link in a second browser,
 * reads the secret and uses it at the token endpoint; the console then shows the receipt as
 * opened. The administrator rotates the signing keys step by step and finds each change in the
 * admin events, none of which holds the secret. Identity, secrets and the mailer run in-process.
 * Every page: no CSP violation, no serious or critical axe-core violation, no sideways scrolling
 * at 360 px, screenshots (1280 px light, 360 px dark) in test-artifacts/admin-console/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'admin-console');
const PASSWORD = 'admin console correct horse';
const OWNER = 'billing-owner@example.com';

let sys: IdentitySystem;
let browser: Browser;
let console_: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Keys reloaded every second, so a next key may be promoted two seconds after it was added.
  sys = await startIdentitySystem({ KEY_RELOAD_INTERVAL: '1' });
  await sys.identity.cli('users', 'create', 'ada', '--password', PASSWORD);
  await sys.identity.cli('roles', 'grant', 'realm-admin', '--user', 'ada');
  await sys.identity.cli('users', 'create', 'pat', '--password', PASSWORD);
  await sys.identity.cli('users', 'create', 'mona', '--password', PASSWORD);
  await sys.identity.cli('roles', 'grant', 'manage-users', '--user', 'mona');
  console_ = `${sys.identity.url}/auth/admin/public/console`;
  browser = await connectChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await sys?.close();
});

async function newPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  return { page, violations: cspViolations(page) };
}

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);
const h1 = (page: Page) => page.locator('h1').textContent();

async function signIn(page: Page, username: string): Promise<void> {
  await page.goto(`${sys.identity.url}/auth/admin/`);
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
}

it('an administrator creates an organization, a user and a client whose secret is handed over, rotates the signing keys and finds it all in the admin events', async () => {
  const { page, violations } = await newPage();
  await signIn(page, 'ada');
  await page.waitForURL(`${console_}/`);
  await expect(h1(page)).resolves.toBe('Administration');
  await inspect(page, violations, 'admin-01-home');

  // An organization.
  await page.click('nav >> text=Organizations');
  await page.fill('#org-name', 'Acme Billing');
  await page.fill('#org-description', 'Invoices and payments');
  await page.click('button:has-text("Create organization")');
  await expect(page.locator('.ok').textContent()).resolves.toBe('Created.');
  await expect(page.locator('ul.items').textContent()).resolves.toContain('Acme Billing');
  await inspect(page, violations, 'admin-02-organizations');

  // A user in it.
  await page.click('nav >> text=Users');
  await page.fill('#u-username', 'carol');
  await page.fill('#u-email', 'carol@example.com');
  await page.fill('#u-first', 'Carol');
  await page.selectOption('#u-org', { label: 'Acme Billing' });
  await page.click('button:has-text("Create user")');
  await expect(h1(page)).resolves.toBe('carol');
  await inspect(page, violations, 'admin-03-user');

  // A confidential client, its secret handed over to its owner.
  await page.click('nav >> text=Clients');
  await inspect(page, violations, 'admin-04-clients');
  await page.fill('#c-id', 'billing-svc');
  await page.fill('#c-name', 'Billing service');
  await page.check('input[name=grant_client_credentials]');
  await page.check('input[name=client_credentials_refresh]');
  await page.fill('#c-scopes', 'secrets:read');
  await page.fill('#c-handover', OWNER);
  await page.click('button:has-text("Create client")');
  await expect(h1(page)).resolves.toBe('billing-svc');
  await expect(page.locator('.ok').textContent()).resolves.toContain('Handed over');
  await expect(page.locator('.receipt-state').first().textContent()).resolves.toBe('not opened yet');
  const clientPage = page.url();
  await inspect(page, violations, 'admin-05-client-handed-over');

  // The owner's e-mail at the real SMTP server; the one-time link opened in a second browser.
  const [mail] = await sys.smtp.waitFor(OWNER, 1, 30_000);
  const link = /https?:\/\/\S+\/secret\/[0-9a-z]{31}/.exec(mail?.mail.text ?? '')?.[0];
  expect(link).toBeDefined();
  const owner = await newPage();
  await owner.page.goto(link as string);
  await owner.page.click('#reveal');
  const secret = await owner.page.locator('#value').inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  const token = await postForm(sys.tokenUrl, { grant_type: 'client_credentials', client_id: 'billing-svc', client_secret: secret, scope: 'secrets:read' });
  expect(token.status).toBe(200);
  // The console never showed it.
  expect(await page.content()).not.toContain(secret);

  // The receipt now says opened.
  await page.goto(clientPage);
  await expect(page.locator('.receipt-state').first().textContent()).resolves.toMatch(/^opened by its owner/);
  await inspect(page, violations, 'admin-06-client-receipt-opened');

  // The signing keys, rotated step by step.
  await page.click('nav >> text=Signing keys');
  const before = await page.locator('ul.items li').count();
  await inspect(page, violations, 'admin-07-keys');
  await page.click('button:has-text("Take the next rotation step")');
  await expect(page.locator('.ok').textContent()).resolves.toMatch(/^Step 1 done/);
  await expect(page.locator('ul.items li:has-text("next: published")').count()).resolves.toBe(2);
  expect(await page.locator('ul.items li').count()).toBe(before + 2);
  await inspect(page, violations, 'admin-08-keys-next');
  let step = '';
  for (let i = 0; i < 20 && !step.startsWith('Step 2'); i++) {
    await new Promise((r) => setTimeout(r, 500));
    await page.click('button:has-text("Take the next rotation step")');
    step = (await page.locator('.ok').textContent()) ?? '';
  }
  expect(step).toMatch(/^Step 2 done/);
  await expect(page.locator('ul.items li:has-text("retiring")').count()).resolves.toBe(2);
  await inspect(page, violations, 'admin-09-keys-promoted');

  // Each change in the admin events; none holds the secret.
  await page.click('nav >> text=Events');
  const events = await page.locator('table.list').textContent();
  for (const change of ['CREATE ORGANIZATION', 'CREATE USER', 'CREATE CLIENT', 'ACTION COMPONENT']) expect(events).toContain(change);
  expect(events).toContain(`"to":"${OWNER}"`);
  expect(await page.content()).not.toContain(secret);
  await inspect(page, violations, 'admin-10-admin-events');
  await page.fill('#f-resourceTypes', 'CLIENT');
  await page.click('button:has-text("Filter")');
  const filtered = await page.locator('table.list tbody tr').allTextContents();
  expect(filtered.length).toBeGreaterThan(0);
  for (const e of filtered) expect(e).toContain('CLIENT');
  await page.click('a:has-text("User events")');
  await expect(h1(page)).resolves.toBe('User events');
  await expect(page.locator('table.list').textContent()).resolves.toContain('LOGIN');
  await inspect(page, violations, 'admin-11-user-events');
  for (const text of [await page.content(), sys.identity.logs.join('\n')]) expect(text).not.toContain(secret);
}, 180_000);

it('a person without an administrator role is refused; a password is handed over; a delete needs the CSRF token and asks for confirmation first', async () => {
  const { page } = await newPage();
  await signIn(page, 'pat');
  await page.waitForURL(`${console_}/`);
  await expect(page.locator('body').textContent()).resolves.toContain('no administrator role');

  const admin = await newPage();
  await signIn(admin.page, 'ada');
  await admin.page.goto(`${console_}/users?search=carol`);
  await admin.page.click('a:has-text("carol")');
  const carolPage = admin.page.url().split('?')[0] as string;
  // Her password handed over to her address: the page shows only the receipt.
  await admin.page.click('button:has-text("Hand over a new password")');
  await expect(admin.page.locator('.ok').textContent()).resolves.toContain('Handed over');
  await expect(admin.page.locator('li[data-receipt]').textContent()).resolves.toMatch(/^Password to ca\*+@e\*+\.com/);
  await sys.smtp.waitFor('carol@example.com', 1, 30_000);
  await inspect(admin.page, admin.violations, 'admin-12-user-password-handed-over');
  // A form POST without the session's CSRF token (same cookies, same origin) changes nothing.
  const forged = await admin.page.request.post(`${carolPage}/delete`, { form: {}, headers: { origin: sys.identity.url } });
  expect(forged.status()).toBe(400);
  await admin.page.goto(carolPage);
  await expect(h1(admin.page)).resolves.toBe('carol');
  await admin.page.click('a:has-text("Delete carol")');
  await expect(h1(admin.page)).resolves.toBe('Delete carol?');
  await inspect(admin.page, admin.violations, 'admin-13-confirm-delete');
  await admin.page.click('button:has-text("Delete user")');
  await expect(admin.page.locator('.ok').textContent()).resolves.toBe('Deleted.');
  await expect(admin.page.locator('table.list').textContent()).resolves.not.toContain('carol');
}, 120_000);

it('an administrator holding only manage-users is offered no action on a realm administrator, and every action on a person without administrator roles', async () => {
  const { page, violations } = await newPage();
  await signIn(page, 'mona');
  await page.waitForURL(`${console_}/`);
  await page.goto(`${console_}/users?search=ada`);
  await page.click('a:has-text("ada")');
  await expect(h1(page)).resolves.toBe('ada');
  for (const action of ['Hand over a new password', 'Set password', 'Sign out everywhere', 'Disable ada'])
    await expect(page.locator(`button:has-text("${action}")`).count()).resolves.toBe(0);
  await expect(page.locator('a:has-text("Delete ada")').count()).resolves.toBe(0);
  await expect(page.locator('p[role=note]').textContent()).resolves.toBe('ada holds administrator roles you do not hold: you may view it, not change it.');
  await inspect(page, violations, 'admin-14-user-above-the-administrator');
  await page.goto(`${console_}/users?search=pat`);
  await page.click('a:has-text("pat")');
  await expect(h1(page)).resolves.toBe('pat');
  for (const action of ['Hand over a new password', 'Set password', 'Sign out everywhere', 'Disable pat'])
    await expect(page.locator(`button:has-text("${action}")`).count()).resolves.toBe(1);
  await expect(page.locator('a:has-text("Delete pat")').count()).resolves.toBe(1);
}, 120_000);

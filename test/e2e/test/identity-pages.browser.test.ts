import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { VIEWPORTS, cspViolations, inspectPage, launchChromium } from './chromium.js';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';
import { codeAt } from '../../../services/identity/src/login/totp.js';

/**
 * Identity's pages as people meet them, in Chromium: the admin console's users, clients and
 * events on a desktop (navigation beside the content, tables) and a phone; the second step,
 * naming the account and the attempts left, and the signed-out page, in English and German.
 * Every page: no CSP violation, no serious or critical axe-core violation, no sideways scrolling,
 * screenshots at 1280 and 360 px, light and dark, in test-artifacts/identity/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'identity');
const PASSWORD = 'correct horse battery staple';
const ACCOUNT = '/auth/realms/public/account';

let identity: Harness;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  identity = await startIdentity({}, {}, 'localhost');
  await identity.cli('users', 'create', 'ada', '--password', PASSWORD, '--email', 'ada@example.com', '--name', 'Ada Lovelace');
  await identity.cli('roles', 'grant', 'realm-admin', '--user', 'ada');
  await identity.cli('orgs', 'create', 'Acme Billing');
  await identity.cli('users', 'create', 'linus', '--password', PASSWORD, '--email', 'linus@example.com', '--org', 'Acme Billing');
  await identity.cli(
    'clients',
    'create',
    '--id',
    'reports-exporter',
    '--name',
    'Reports exporter',
    '--grants',
    'client_credentials',
    '--scopes',
    'openid',
    '--org',
    'Acme Billing',
  );
  await identity.cli(
    'clients',
    'create',
    '--id',
    'team-wiki',
    '--name',
    'Team wiki',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile,email',
    '--redirect-uri',
    'https://wiki.example.com/cb',
    '--consent-required',
  );
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await identity?.close();
});

async function newPage(locale?: string): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, ...(locale ? { locale } : {}) });
  const page = await context.newPage();
  return { page, violations: cspViolations(page) };
}

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);
const h1 = (page: Page) => page.locator('h1').textContent();

async function signIn(page: Page, username: string) {
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
}

it('the admin console on a desktop: navigation beside the content, users, clients and events as tables naming who acted', async () => {
  const { page, violations } = await newPage();
  await page.goto(`${identity.url}/auth/admin/`);
  await signIn(page, 'ada');
  await expect(h1(page)).resolves.toBe('Administration');

  // The navigation is beside the content at 1280 px, above it at 360 px.
  const nav = page.locator('.console > nav');
  const content = page.locator('.console > .content');
  const [navBox, contentBox] = [await nav.boundingBox(), await content.boundingBox()];
  expect(navBox!.x + navBox!.width).toBeLessThanOrEqual(contentBox!.x);
  expect(contentBox!.width).toBeGreaterThan(700);

  // A user made with the console's form (a plain POST), in an organization.
  await page.goto(`${identity.url}/auth/admin/public/console/users`);
  await page.fill('#u-username', 'grace');
  await page.fill('#u-email', 'grace@example.com');
  await page.fill('#u-first', 'Grace');
  await page.fill('#u-last', 'Hopper');
  await page.selectOption('#u-org', { label: 'Acme Billing' });
  await page.click('button:has-text("Create user")');
  await page.goto(`${identity.url}/auth/admin/public/console/users`);
  await expect(page.locator('table.list thead th').allTextContents()).resolves.toEqual([
    'Username ▲',
    'Name',
    'E-mail',
    'Verified',
    'Enabled',
    'Second factor',
    'Organization',
    'Created',
  ]);
  const grace = page.locator('table.list tbody tr', { hasText: 'grace' });
  await expect(grace.locator('td').allTextContents()).resolves.toEqual(expect.arrayContaining(['grace', 'Grace Hopper', 'grace@example.com', 'Acme Billing']));
  await inspect(page, violations, 'console-users');

  await page.goto(`${identity.url}/auth/admin/public/console/users?search=grace`);
  await expect(page.locator('table.list tbody tr').count()).resolves.toBe(1);
  await expect(page.locator('#search').inputValue()).resolves.toBe('grace');

  await page.goto(`${identity.url}/auth/admin/public/console/clients`);
  await expect(page.locator('table.list thead th').allTextContents()).resolves.toEqual(['Client id ▲', 'Name', 'Type', 'Grants', 'Organization', 'Consent', 'Enabled']);
  const wiki = page.locator('table.list tbody tr', { hasText: 'team-wiki' });
  await expect(wiki.locator('td').allTextContents()).resolves.toEqual(['team-wiki', 'Team wiki', 'confidential', 'authorization code, refresh token', '—', 'asked', 'yes']);
  await inspect(page, violations, 'console-clients');

  // The admin events of those changes name ada, not her id.
  await page.goto(`${identity.url}/auth/admin/public/console/events?kind=admin`);
  await expect(page.locator('table.list thead th').allTextContents()).resolves.toEqual(['Time ▼', 'Type', 'By', 'What', 'IP address']);
  await expect(page.locator('table.list tbody tr').first().locator('td').nth(2).textContent()).resolves.toBe('ada');
  await inspect(page, violations, 'console-events');
  await page.goto(`${identity.url}/auth/admin/public/console/events?kind=user&type=LOGIN`);
  await expect(page.locator('table.list tbody tr').first().locator('td').nth(2).textContent()).resolves.toBe('ada');
  await inspect(page, violations, 'console-user-events');
  expect(violations).toEqual([]);
}, 180_000);

/** A person with an authenticator app, enrolled in the account console; returns the TOTP secret. */
async function personWithTotp(username: string): Promise<string> {
  await identity.cli('users', 'create', username, '--password', PASSWORD);
  const { page } = await newPage();
  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await signIn(page, username);
  await page.click('a:has-text("Set up an authenticator app")');
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
  await page.fill('#code', codeAt(secret, Date.now() - 30_000));
  await page.click('button:has-text("Confirm")');
  await expect(h1(page)).resolves.toBe('Authenticator app set up');
  await page.context().close();
  return secret;
}

for (const [locale, words] of [
  ['en', { signingInAs: 'Signing in as', left: /\d+ attempts left/, signOut: 'Sign out', signedOut: 'You are signed out' }],
  ['de', { signingInAs: 'Anmeldung als', left: /Noch \d+ Versuche/, signOut: 'Abmelden', signedOut: 'Sie sind abgemeldet' }],
] as const) {
  it(`${locale}: the second step names the account and the attempts left; signing out lands on a page saying so`, async () => {
    const username = `tess-${locale}`;
    const secret = await personWithTotp(username);
    const { page, violations } = await newPage(locale === 'de' ? 'de-DE' : 'en-GB');
    await page.goto(`${identity.url}${ACCOUNT}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale);
    await inspect(page, violations, `login-${locale}`);
    await signIn(page, username);
    await expect(page.locator('main').textContent()).resolves.toContain(`${words.signingInAs} ${username}`);
    await expect(page.locator('#attempts-left').textContent()).resolves.toMatch(words.left);
    await inspect(page, violations, `second-step-${locale}`);
    await page.fill('#code', codeAt(secret, Date.now()));
    await page.click('form:has(#code) button[type=submit]');
    await expect(page.locator('#sign-out').textContent()).resolves.toBe(words.signOut);
    await page.click('header.masthead #sign-out');
    await expect(h1(page)).resolves.toBe(words.signedOut);
    await inspect(page, violations, `signed-out-${locale}`);
    expect(violations).toEqual([]);
  }, 120_000);
}

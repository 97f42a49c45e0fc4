import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { VIEWPORTS, cspViolations, inspectPage, connectChromium } from './chromium.js';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';

/**
 * Identity's admin console as people meet it, in Chromium: users, clients and events on a desktop
 * (navigation beside the content, tables) and a phone. The second step and the signed-out page, in
 * English and German, are page-languages.browser.test.ts's. Every page: no CSP violation, no
 * serious or critical axe-core violation, no sideways scrolling, screenshots (1280 px
 * light, 360 px dark) in test-artifacts/identity/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'identity');
const PASSWORD = 'correct horse battery staple';

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
  browser = await connectChromium();
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

import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { personWithTotp } from '../../../services/identity/test/security/attack.js';
import { VIEWPORTS, cspViolations, inEveryLook, connectChromium, screenshot } from './chromium.js';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * The admin console's lists (users, clients, events) in Chromium, in English and German: sorted
 * on the server by a click on a column's header (the order in the URL, kept by the search and the
 * pager, no JavaScript), the language chosen by Accept-Language and by the switcher in the header,
 * and the second factor shown for a person who enrolled TOTP. Every list page: axe-core finds no
 * violation at all, no CSP violation, no sideways scrolling at 360 px, and screenshots in
 * test-artifacts/admin-console-lists/ named `<list>-<language>-<width>-<scheme>.png`.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'admin-console-lists');
const PASSWORD = 'admin console lists horse';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let sys: IdentitySystem;
let browser: Browser;
let console_: string;
let totpUser: string;

/** An admin API call as hush-admin (its changes are admin events). */
async function adminApi(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${sys.identity.url}/auth/admin/realms/public${path}`, {
    method,
    headers: { authorization: `Bearer ${await sys.adminToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  sys = await startIdentitySystem();
  await sys.identity.cli('users', 'create', 'ada', '--password', PASSWORD, '--email', 'ada@example.com', '--name', 'Ada Lovelace');
  await sys.identity.cli('roles', 'grant', 'realm-admin', '--user', 'ada');
  await sys.identity.cli('orgs', 'create', 'Acme Billing');
  const people = [
    ['bruno', 'Bruno', 'Díaz-Villalobos', 'bruno.diaz-villalobos@very-long-subdomain.example.com'],
    ['chen', 'Chen', 'Wei', 'chen.wei@example.org'],
    ['dagmar', 'Dagmar', 'Müller-Lüdenscheidt', 'dagmar@example.de'],
    ['emeka', 'Emeka', 'Okafor', undefined],
    ['farah', 'Farah', 'Haddad', 'farah.haddad@example.com'],
  ] as const;
  for (const [username, firstName, lastName, email] of people)
    await adminApi('POST', '/users', { username, firstName, lastName, ...(email ? { email, emailVerified: username !== 'chen' } : {}), enabled: username !== 'emeka' });
  for (let i = 0; i < 22; i++) await adminApi('POST', '/users', { username: `user-${String(i).padStart(2, '0')}`, email: `user-${i}@example.com` });
  const redis = new Redis(sys.identity.config.REDIS_URL);
  try {
    totpUser = (await personWithTotp(sys.identity, redis)).username;
  } finally {
    redis.disconnect();
  }
  await adminApi('POST', '/clients', { clientId: 'billing-svc', name: 'Billing service', serviceAccountsEnabled: true });
  await adminApi('POST', '/clients', {
    clientId: 'partner-portal',
    name: 'Partner portal',
    publicClient: true,
    consentRequired: true,
    redirectUris: ['https://partner.example.com/cb'],
  });
  await adminApi('POST', '/clients', { clientId: 'tv-app', name: 'Living-room TV', publicClient: true, attributes: { 'oauth2.device.authorization.grant.enabled': 'true' } });
  console_ = `${sys.identity.url}/auth/admin/public/console`;
  browser = await connectChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sys?.close();
});

/** A browser (`locale` sets its Accept-Language) signed in to the console as ada. */
async function signedIn(locale: string): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale });
  const page = await context.newPage();
  const violations = cspViolations(page);
  await page.goto(`${console_}/`);
  await page.fill('#username', 'ada');
  await page.fill('#password', PASSWORD);
  await page.press('#password', 'Enter');
  await page.waitForURL(`${console_}/`);
  return { context, page, violations };
}

const h1 = (page: Page) => page.locator('h1').textContent();
const column = (page: Page, n: number) => page.locator(`table.list tbody tr td:nth-child(${n})`).allTextContents();

/** axe-core finds nothing (of any impact); no CSP violation; nothing wider than the screen; the screenshots (desktop light, phone dark). */
async function look(page: Page, violations: string[], name: string): Promise<void> {
  await page.evaluate(AXE);
  const found = await page.evaluate<string[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
  expect({ name, found }).toEqual({ name, found: [] });
  await inEveryLook(page, async (width, scheme) => {
    await screenshot(page, ARTIFACTS, name, width, scheme);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect({ name, width, overflow }).toEqual({ name, width, overflow: Math.min(overflow, VIEWPORTS[width].width) });
  });
  expect({ name, violations }).toEqual({ name, violations: [] });
}

it('users sort by a click on a column’s header, both ways, and the search and the pager keep the order; a TOTP user shows the second factor', async () => {
  const { context, page, violations } = await signedIn('en-GB');
  await page.click('nav >> text=Users');
  await expect(h1(page)).resolves.toBe('Users');
  await expect(page.locator('table.list caption').textContent()).resolves.toBe('29 users; 1–20 shown');
  await expect(column(page, 1)).resolves.toEqual(expect.arrayContaining(['ada', 'bruno']));

  // Newest first: the TOTP user was created last.
  await page.click('th >> a:has-text("Created")');
  expect(new URL(page.url()).search).toBe('?sort=createdTimestamp&direction=desc');
  await expect(page.locator('th[aria-sort=descending]').textContent()).resolves.toContain('Created');
  const newest = await column(page, 1);
  expect(newest[0]).toBe(totpUser);
  await expect(page.locator('table.list tbody tr').first().locator('td:nth-child(6)').textContent()).resolves.toBe('Authenticator app');
  await look(page, violations, 'users-en');

  // Again: oldest first.
  await page.click('th >> a:has-text("Created")');
  expect(new URL(page.url()).search).toBe('?sort=createdTimestamp&direction=asc');
  expect((await column(page, 1))[0]).toBe('ada');

  // By e-mail, descending; the next page follows in the same order.
  await page.click('th >> a:has-text("E-mail")');
  await page.click('th >> a:has-text("E-mail")');
  expect(new URL(page.url()).search).toBe('?sort=email&direction=desc');
  const firstPage = await column(page, 3);
  await page.click('a[rel=next]');
  expect(new URL(page.url()).search).toBe('?sort=email&direction=desc&first=20');
  const emails = [...firstPage, ...(await column(page, 3))].filter((e) => e !== '—');
  // In the database's order (code points, case aside), each user once.
  const lower = emails.map((e) => e.toLowerCase());
  expect(lower).toEqual([...lower].sort().reverse());
  expect(new Set(lower).size).toBe(lower.length);

  // A search keeps the order.
  await page.fill('#search', 'user-1');
  await page.click('form[role=search] button');
  expect(new URL(page.url()).searchParams.get('sort')).toBe('email');
  expect(await column(page, 1)).toEqual(expect.arrayContaining(['user-19', 'user-10']));
  // `user-1@` after `user-19@` (`@` is after `9`): user-01 leads, descending.
  expect((await column(page, 1))[0]).toBe('user-01');
  await context.close();
}, 120_000);

it('clients and events sort by their columns; every list page passes axe in English', async () => {
  const { context, page, violations } = await signedIn('en-GB');
  await page.click('nav >> text=Clients');
  await page.click('th >> a:has-text("Name")');
  const names = (await column(page, 2)).map((n) => n.toLowerCase());
  expect(names).toEqual([...names].sort());
  await page.click('th >> a:has-text("Consent")');
  await page.click('th >> a:has-text("Consent")');
  expect((await column(page, 1))[0]).toBe('partner-portal');
  await look(page, violations, 'clients-en');

  await page.click('nav >> text=Events');
  await expect(h1(page)).resolves.toBe('Admin events');
  await expect(page.locator('table.list caption').textContent()).resolves.toMatch(/newest first$/);
  await page.click('th >> a:has-text("Time")');
  await expect(page.locator('table.list caption').textContent()).resolves.toMatch(/oldest first$/);
  await expect(page.locator('table.list tbody tr').first().textContent()).resolves.toContain('CREATE USER');
  await look(page, violations, 'events-en');
  await context.close();
}, 120_000);

it('with Accept-Language: de the console is German throughout, until the switcher chooses English', async () => {
  const { context, page, violations } = await signedIn('de-DE');
  await expect(h1(page)).resolves.toBe('Verwaltung');
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');

  await page.click('nav >> text=Benutzer');
  await expect(h1(page)).resolves.toBe('Benutzer');
  await expect(page.locator('table.list thead').textContent()).resolves.toBe('Benutzername ▲NameE-MailBestätigtAktivZweiter FaktorOrganisationAngelegt');
  await page.click('th >> a:has-text("Angelegt")');
  await expect(page.locator('table.list tbody tr').first().locator('td:nth-child(6)').textContent()).resolves.toBe('Authenticator-App');
  await expect(page.locator('a[rel=next]').textContent()).resolves.toBe('Nächste Seite');
  await expect(page.locator('body').textContent()).resolves.toContain('Neuer Benutzer');
  await look(page, violations, 'users-de');

  await page.click('nav >> text=Clients');
  await expect(page.locator('table.list thead').textContent()).resolves.toBe('Client-ID ▲NameTypGrantsOrganisationZustimmungAktiv');
  await expect(page.locator('body').textContent()).resolves.toContain('Client anlegen');
  await look(page, violations, 'clients-de');

  await page.click('nav >> text=Ereignisse');
  await expect(h1(page)).resolves.toBe('Admin-Ereignisse');
  await expect(page.locator('table.list caption').textContent()).resolves.toMatch(/neueste zuerst$/);
  await look(page, violations, 'events-de');

  // A refusal in German, in the console's frame.
  await page.goto(`${console_}/users/00000000-0000-4000-8000-000000000000`);
  await expect(h1(page)).resolves.toBe('Das hat nicht geklappt');
  await expect(page.locator('p.error').textContent()).resolves.toMatch(/^Nicht gefunden/);

  // The switcher's English is kept on the next pages, whatever the browser prefers.
  await page.goto(`${console_}/users`);
  await page.click('nav.languages >> text=English');
  await expect(h1(page)).resolves.toBe('Users');
  await page.click('nav >> text=Clients');
  await expect(h1(page)).resolves.toBe('Clients');
  await expect(page.locator('table.list thead').textContent()).resolves.toContain('Client id');
  await context.close();
}, 120_000);

it('an administrator whose locale attribute is German gets the German console from an English browser', async () => {
  const found = await fetch(`${sys.identity.url}/auth/admin/realms/public/users?username=ada&exact=true`, { headers: { authorization: `Bearer ${await sys.adminToken()}` } });
  const [ada] = (await found.json()) as { id: string }[];
  await adminApi('PUT', `/users/${ada!.id}`, { attributes: { locale: ['de'] } });
  try {
    const { context, page } = await signedIn('en-US');
    await expect(h1(page)).resolves.toBe('Verwaltung');
    await page.click('nav >> text=Benutzer');
    await expect(h1(page)).resolves.toBe('Benutzer');
    await context.close();
  } finally {
    await adminApi('PUT', `/users/${ada!.id}`, { attributes: {} });
  }
}, 120_000);

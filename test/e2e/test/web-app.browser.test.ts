import request from 'supertest';
import { type Page } from 'playwright-core';
import { browserTests } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWebWithIdentity } from '../../../services/secrets/test/identity.js';

/**
 * Issue 13's journey in Chromium (Debian's, driven by playwright-core): a person signs in through
 * identity's login page, shares with a passphrase and a recipient (encrypted in the browser, the
 * default when JavaScript runs: docs/zero-knowledge.md), copies the full link, which a signed-out
 * second browser reveals; the receipt then says received; a second secret is burned
 * from My secrets; an API token is made, used with HTTP Basic, revoked and refused; sign-out
 * ends at identity and a protected page asks to sign in again. Every page: no CSP violation, no
 * serious or critical axe-core violation, and screenshots (1280 px light, 360 px dark) in
 * test-artifacts/web/ (git-ignored).
 */
const PASSWORD = 'correct horse battery staple';
const SECRET = 'db-password: s3cr3t-Ω-42';

let identity: IdentityHarness;
let secrets: SecretsHarness;
const suite = browserTests('web', async (own) => {
  ({ identity, h: secrets } = await startWebWithIdentity());
  own(identity);
  own(secrets);
  await identity.cli('users', 'create', 'wendy', '--password', PASSWORD);
});

async function newPage(): Promise<{ page: Page; violations: string[] }> {
  const { context, page, violations } = await suite.newTab();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: secrets.url });
  return { page, violations };
}

const inspect = (page: Page, violations: string[], name: string) => suite.inspect(page, violations, name);

const h1 = (page: Page) => page.locator('h1').textContent();

it('signs in, shares, reveals, burns, manages API tokens and signs out', async () => {
  const { page, violations } = await newPage();

  // Sign in through identity's login page.
  await page.goto(`${secrets.url}/`);
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  await inspect(page, violations, 'web-01-sign-in');
  await page.fill('#username', 'wendy');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if ((await h1(page))?.startsWith('Allow')) await page.click('button:has-text("Allow")');
  await page.waitForURL(`${secrets.url}/`);
  await expect(h1(page)).resolves.toBe('Share a secret');
  await inspect(page, violations, 'web-02-share');

  // Share with a passphrase and a recipient; the counter follows the text; the page says the browser encrypts.
  await expect(page.locator('#mode').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await page.fill('#secret', SECRET);
  await expect(page.locator('#count').textContent()).resolves.toBe(`${[...SECRET].length} of 1000 characters`);
  await page.fill('#passphrase', 'blue tulip');
  await page.selectOption('#ttl', '3600');
  await page.fill('#recipient', 'erin@example.com');
  await page.click('#share');
  await page.waitForURL(/\/private\//);
  await expect(h1(page)).resolves.toBe('Your secret link is ready');
  await expect(page.locator('#state').getAttribute('data-state')).resolves.toBe('new');
  await expect(page.locator('#encryption').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  const link = await page.locator('#link').inputValue();
  expect(link).toMatch(new RegExp(`^${secrets.url}/secret/[0-9a-z]{31}#[A-Za-z0-9_-]{43}$`));
  await page.click('button[data-copy=link]');
  await page.locator('#link-copied').waitFor({ state: 'visible' });
  await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);
  await inspect(page, violations, 'web-03-result');
  const receiptUrl = page.url();

  // A second, signed-out browser reveals it with the passphrase (decrypted there).
  const other = await newPage();
  await other.page.goto(link);
  await other.page.fill('#passphrase', 'blue tulip');
  await other.page.click('#reveal');
  await other.page.locator('#result').waitFor({ state: 'visible' });
  await expect(other.page.locator('#value').inputValue()).resolves.toBe(SECRET);

  // The creator's receipt now says received, and no longer shows the link.
  await page.goto(receiptUrl);
  await expect(page.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  await expect(page.locator('#link').count()).resolves.toBe(0);
  await inspect(page, violations, 'web-04-receipt-received');

  // A generated password, then a second secret burned from My secrets.
  await page.goto(`${secrets.url}/`);
  await page.click('#generate');
  await expect(h1(page)).resolves.toBe('Your new password');
  expect(await page.locator('#value').inputValue()).toMatch(/^.{12}$/);
  await inspect(page, violations, 'web-05-generated');

  await page.goto(`${secrets.url}/`);
  await page.fill('#secret', 'to be burned');
  await page.click('#share');
  await page.waitForURL(/\/private\//);
  const second = await page.locator('#link').inputValue();
  await page.goto(`${secrets.url}/secrets`);
  await expect(h1(page)).resolves.toBe('My secrets');
  await expect(page.locator('ul.items > li').count()).resolves.toBe(3);
  await inspect(page, violations, 'web-06-my-secrets');
  // Each item leads to its receipt, which shows the link of an unread secret to its creator (without
  // its key, which was made in the browser and is kept nowhere).
  const receipt = await page.locator('ul.items > li').first().locator('a:has-text("receipt")').getAttribute('href');
  expect(receipt).toMatch(/^\/private\/[0-9a-z]{31}$/);
  await page.goto(`${secrets.url}${receipt}`);
  await expect(page.locator('#link').inputValue()).resolves.toBe(second.slice(0, second.indexOf('#')));
  await page.goto(`${secrets.url}/secrets`);
  await page.locator('ul.items > li').first().locator('button:has-text("Burn")').click();
  await expect(h1(page)).resolves.toMatch(/^Burn secret [0-9a-z]{6}\?$/);
  await inspect(page, violations, 'web-07-burn-confirm');
  await page.click('#confirm-burn');
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('burned');
  await expect(page.locator('ul.items > li').first().locator('.state').getAttribute('data-state')).resolves.toBe('burned');
  await other.page.goto(second);
  await expect(h1(other.page)).resolves.toContain('not available');

  // An API token: created (shown once, with a curl line), used with Basic, revoked, refused.
  await page.click('nav a:has-text("API tokens")');
  await expect(h1(page)).resolves.toBe('API tokens');
  await inspect(page, violations, 'web-08-tokens');
  await page.fill('#label', 'e2e script');
  await page.click('#create-token');
  const token = await page.locator('#token').inputValue();
  await expect(page.locator('#curl').inputValue()).resolves.toContain(`curl -u 'wendy:${token}' ${secrets.url}/api/v1/share`);
  await inspect(page, violations, 'web-09-token-created');
  const basic = `Basic ${Buffer.from(`wendy:${token}`).toString('base64')}`;
  const used = await request(secrets.url).post('/api/v1/share').set('Authorization', basic).type('form').send({ secret: 'from a script' });
  expect(used.status).toBe(200);
  expect(used.body).toMatchObject({ custid: 'wendy' });
  await page.goto(`${secrets.url}/tokens`);
  await expect(page.locator('ul.items dd').nth(2).textContent()).resolves.not.toBe('Never');
  await page.click('button:has-text("Revoke")');
  await expect(page.locator('[role=status]').textContent()).resolves.toContain('revoked');
  const refused = await request(secrets.url).post('/api/v1/share').set('Authorization', basic).type('form').send({ secret: 'again' });
  expect(refused.status).toBe(401);

  // Sign out here and at identity; a protected page then asks to sign in.
  // With its id_token_hint, identity signs out at once (no confirmation page) and redirects back.
  await page.click('#sign-out');
  await page.waitForURL(`${secrets.url}/auth/signed-out`);
  await expect(h1(page)).resolves.toBe('You are signed out');
  await inspect(page, violations, 'web-10-signed-out');
  await page.goto(`${secrets.url}/secrets`);
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  expect(page.url().startsWith(identity.issuer)).toBe(true);
  expect(other.violations).toEqual([]);
}, 180_000);

describe('with ANONYMOUS_SHARES=true', () => {
  let anon: { identity: IdentityHarness; h: SecretsHarness } | undefined;
  beforeAll(async () => {
    anon = await startWebWithIdentity({ ANONYMOUS_SHARES: 'true' });
  }, 60_000);
  afterAll(async () => {
    await anon?.h.close();
    await anon?.identity.close();
  });

  it('a signed-out visitor shares from the home page, anonymously, and gets the link', async () => {
    const url = (anon as { h: SecretsHarness }).h.url;
    const { page, violations, close } = await suite.newTab();
    await page.goto(`${url}/`);
    await expect(h1(page)).resolves.toBe('Share a secret');
    await expect(page.locator('#anonymous-note').textContent()).resolves.toContain('shared anonymously');
    await expect(page.locator('#recipient').count()).resolves.toBe(0);
    await inspect(page, violations, 'web-11-anonymous-share');
    await page.fill('#secret', 'anonymous, from the home page');
    await page.click('#share');
    await page.waitForURL(/\/private\//);
    await expect(h1(page)).resolves.toBe('Your secret link is ready');
    await expect(page.locator('#link').inputValue()).resolves.toMatch(new RegExp(`^${url}/secret/[0-9a-z]{31}#[A-Za-z0-9_-]{43}$`));
    await close();
  }, 60_000);
});

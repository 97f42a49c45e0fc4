import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { type Browser, type Page } from 'playwright-core';
import { VIEWPORTS, cspViolations, inspectPage, connectChromium } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWebWithIdentity } from '../../../services/secrets/test/identity.js';

/**
 * A secret request in Chromium: Alice asks Bob for a secret; Bob opens the link without an
 * account and sends it; the link is then spent; Alice finds the secret in My secrets and reads it
 * once; an anonymous visitor and another signed-in account (Carol) holding the secret link are
 * refused and consume nothing. Every page: no CSP violation, no serious or critical axe-core
 * violation, no sideways scrolling, screenshots (1280 px light, 360 px dark) in
 * test-artifacts/requests/ (git-ignored).
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'requests');
const PASSWORD = 'correct horse battery staple';
const SECRET = 'staging-db: p4ss-Ω-7';
const LABEL = 'Staging database password';

let identity: IdentityHarness;
let secrets: SecretsHarness;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ identity, h: secrets } = await startWebWithIdentity());
  await identity.cli('users', 'create', 'alice', '--password', PASSWORD);
  await identity.cli('users', 'create', 'carol', '--password', PASSWORD);
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await secrets?.close();
  await identity?.close();
});

// The pages in the server's mode, where the service encrypts: the zero-knowledge script is held
// back (as when JavaScript is off; the pages' other scripts run). The same journey encrypted in the
// browser is in zero-knowledge.browser.test.ts.
async function newPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  await context.route('**/assets/zk-*.js', (route) => route.abort());
  const page = await context.newPage();
  return { page, violations: cspViolations(page) };
}

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);

const h1 = (page: Page) => page.locator('h1').textContent();

/** Signs in through identity's login page from a protected page, and comes back to it. */
async function signIn(page: Page, username: string, path: string) {
  await page.goto(`${secrets.url}${path}`);
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if ((await h1(page))?.startsWith('Allow')) await page.click('button:has-text("Allow")');
  await page.waitForURL(`${secrets.url}${path}`);
}

it('Alice asks Bob for a secret; Bob sends it once without an account; only Alice reads it, once', async () => {
  const alice = await newPage();
  await signIn(alice.page, 'alice', '/ask');
  await expect(h1(alice.page)).resolves.toBe('Ask for a secret');
  await expect(alice.page.locator('nav a[aria-current=page]').textContent()).resolves.toBe('Requests');
  await inspect(alice.page, alice.violations, 'requests-01-form');

  // The form works from the keyboard: label, then Tab through the choices, Enter submits.
  await alice.page.focus('#label');
  await alice.page.keyboard.type(LABEL);
  await alice.page.fill('#recipient', 'bob@example.com');
  await alice.page.focus('#label');
  await alice.page.keyboard.press('Enter');
  await alice.page.waitForURL(/\/ask\?created=/);
  await expect(h1(alice.page)).resolves.toBe('Your request link is ready');
  const link = await alice.page.locator('#request-link').inputValue();
  expect(link).toMatch(new RegExp(`^${secrets.url}/request/[0-9a-z]{31}$`));
  await expect(alice.page.locator('#requests li .state').first().getAttribute('data-state')).resolves.toBe('open');
  await inspect(alice.page, alice.violations, 'requests-02-created');

  // Bob, signed out, opens the link and sends the secret.
  const bob = await newPage();
  await bob.page.goto(link);
  await expect(h1(bob.page)).resolves.toBe('Send a secret to alice');
  await expect(bob.page.locator('#request-label').textContent()).resolves.toBe(LABEL);
  await inspect(bob.page, bob.violations, 'requests-03-answer');
  await bob.page.fill('#secret', SECRET);
  await bob.page.click('#send');
  await expect(h1(bob.page)).resolves.toBe('Secret sent');
  await inspect(bob.page, bob.violations, 'requests-04-sent');

  // The link is spent: the page says so, and the API refuses a second secret.
  await bob.page.goto(link);
  await expect(h1(bob.page)).resolves.toBe('This request is not available');
  await inspect(bob.page, bob.violations, 'requests-05-spent');
  const key = link.split('/request/')[1];
  expect((await request(secrets.url).post(`/api/v1/request/${key}`).send({ secret: 'another' })).status).toBe(404);

  // Alice finds it in My secrets, with its own receipt, which shows her the secret link.
  await alice.page.click('nav a:has-text("My secrets")');
  await expect(h1(alice.page)).resolves.toBe('My secrets');
  const item = alice.page.locator('ul.items > li').first();
  await expect(item.locator('.request-label').textContent()).resolves.toBe(LABEL);
  await inspect(alice.page, alice.violations, 'requests-06-my-secrets');
  await item.locator('a:has-text("receipt")').click();
  await expect(alice.page.locator('#request-label').textContent()).resolves.toBe(LABEL);
  const secretLink = await alice.page.locator('#link').inputValue();
  expect(secretLink).toMatch(new RegExp(`^${secrets.url}/secret/[0-9a-z]{31}$`));
  const receiptUrl = alice.page.url();
  await inspect(alice.page, alice.violations, 'requests-07-receipt');

  // Nobody else can read it: an anonymous visitor is asked to sign in, Carol is told it is not hers; nothing is consumed.
  await bob.page.goto(secretLink);
  await expect(h1(bob.page)).resolves.toBe('This secret is for one account only');
  await expect(bob.page.locator('#sign-in-to-read').count()).resolves.toBe(1);
  await expect(bob.page.locator('textarea#value').count()).resolves.toBe(0);
  await inspect(bob.page, bob.violations, 'requests-08-not-yours');
  const anonymousApi = await request(secrets.url).post(`/api/v1/secret/${secretLink.split('/secret/')[1]}`);
  expect(anonymousApi.status).toBe(403);

  const carol = await newPage();
  await signIn(carol.page, 'carol', '/secrets');
  await carol.page.goto(secretLink);
  await expect(h1(carol.page)).resolves.toBe('This secret is for one account only');
  await expect(carol.page.locator('#other-account').textContent()).resolves.toContain('carol');
  await expect(carol.page.locator('#reveal').count()).resolves.toBe(0);
  await inspect(carol.page, carol.violations, 'requests-09-other-account');

  await alice.page.goto(receiptUrl);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('new');

  // Alice reads it from her receipt, once.
  await alice.page.click('#read');
  await alice.page.waitForURL(secretLink);
  await expect(h1(alice.page)).resolves.toBe('Someone sent you a secret');
  await alice.page.click('#reveal');
  await expect(alice.page.locator('#value').inputValue()).resolves.toBe(SECRET);
  await inspect(alice.page, alice.violations, 'requests-10-read');
  await alice.page.goto(secretLink);
  await expect(h1(alice.page)).resolves.toBe('This secret is not available');
  await carol.page.goto(secretLink);
  await expect(h1(carol.page)).resolves.toBe('This secret is not available');

  // The receipt keeps what happened: viewed, by alice.
  await alice.page.goto(receiptUrl);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  await expect(alice.page.locator('#viewed').textContent()).resolves.toContain('by alice');
  await alice.page.goto(`${secrets.url}/ask`);
  await expect(alice.page.locator('#requests li .state').first().getAttribute('data-state')).resolves.toBe('fulfilled');
  await inspect(alice.page, alice.violations, 'requests-11-answered');
}, 180_000);

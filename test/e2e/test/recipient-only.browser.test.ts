import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { type Browser, type Page } from 'playwright-core';
import { capturingLogger, startSmtp, testRedisUrl, type TestSmtp } from '@hush/testing';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';
import { VIEWPORTS, cspViolations, inspectPage, connectChromium } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWebWithIdentity } from '../../../services/secrets/test/identity.js';
import { hashKey } from '../../../services/secrets/src/secrets/keys.js';

/**
 * A recipient-only secret in Chromium: Alice shares one for Bob's address; the link opened
 * signed-out, then signed in as Carol, reveals nothing and leaves the secret intact (Alice is told
 * of the refused opening, without the secret or its link); Bob signs in and reads it; the receipt
 * shows Bob and the time. A recipient without an account proves the address with a code read
 * from the real SMTP server of the test (sent by the mailer, through the queue) and reads it. Every page: no CSP violation, no serious or critical axe-core violation, no sideways
 * scrolling, screenshots (1280 px light, 360 px dark) in test-artifacts/recipient-only/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'recipient-only');
const PASSWORD = 'correct horse battery staple';
const SECRET = 'vpn-root: 7q#Lx-Ω-19';
const NO_ACCOUNT_SECRET = 'wifi: rainy-otter-42';

let identity: IdentityHarness;
let secrets: SecretsHarness;
let smtp: TestSmtp;
let mailer: Mailer;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtp();
  const prefix = `e2e-${randomBytes(5).toString('hex')}`;
  ({ identity, h: secrets } = await startWebWithIdentity({ QUEUE_PREFIX: prefix, RELAY_INTERVAL_MS: '100' }));
  const mailerConfig = readMailerConfig({
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: smtp.url,
    MANAGEMENT_PORT: '0',
    MAIL_SEALING_KEY: secrets.env['MAIL_SEALING_KEY'],
  });
  mailer = await serveMailer(mailerConfig, capturingLogger('mailer-recipient-only').logger);
  for (const name of ['alice', 'bob', 'carol']) {
    await identity.cli('users', 'create', name, '--password', PASSWORD, '--email', `${name}@example.com`, '--email-verified');
  }
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await mailer?.close();
  await secrets?.close();
  await identity?.close();
  await smtp?.close();
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

/** On identity's login page (reached from a page of the secrets service), signs in and lets it go back. */
async function logIn(page: Page, username: string, backTo: string) {
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if ((await h1(page))?.startsWith('Allow')) await page.click('button:has-text("Allow")');
  await page.waitForURL(backTo);
}

/** Whether the secret behind `link` is still stored, unread. */
async function stillThere(link: string): Promise<boolean> {
  const key = link.split('/secret/')[1] as string;
  return (await secrets.db('secrets').where('secret_hash', hashKey(key)).first()) !== undefined;
}

/** Alice shares a recipient-only secret from the share page; returns the secret link and the receipt's URL. */
async function share(page: Page, value: string, recipient: string): Promise<{ link: string; receipt: string }> {
  await page.goto(`${secrets.url}/`);
  await page.fill('#secret', value);
  await page.fill('#recipient', recipient);
  await page.check('#recipient_only');
  await page.click('#share');
  await expect(h1(page)).resolves.toBe('Your secret link is ready');
  return { link: await page.locator('#link').inputValue(), receipt: page.url().replace(/\?.*$/, '') };
}

it("Alice shares for Bob's address: nobody else reads it, Bob signs in and does; the receipt names him", async () => {
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/`);
  await logIn(alice.page, 'alice', `${secrets.url}/`);
  await inspect(alice.page, alice.violations, 'recipient-01-share');
  const { link, receipt } = await share(alice.page, SECRET, 'bob@example.com');
  await expect(alice.page.locator('#recipient-only').textContent()).resolves.toContain('who alone can read it');
  await inspect(alice.page, alice.violations, 'recipient-02-created');

  // Signed out: the page says who the secret is for and asks to sign in; nothing is revealed or consumed.
  const stranger = await newPage();
  await stranger.page.goto(link);
  await expect(h1(stranger.page)).resolves.toBe('This secret is for bo*****@e*****.com');
  await expect(stranger.page.locator('#sign-in-to-read').count()).resolves.toBe(1);
  await expect(stranger.page.locator('#value').count()).resolves.toBe(0);
  await expect(stranger.page.content()).resolves.not.toContain(SECRET);
  await inspect(stranger.page, stranger.violations, 'recipient-03-signed-out');
  expect(await stillThere(link)).toBe(true);
  // A scanner through the API: refused, and the secret stays.
  expect((await request(secrets.url).post(`/api/v1/secret/${link.split('/secret/')[1]}`)).status).toBe(403);
  expect(await stillThere(link)).toBe(true);

  // Carol signs in from the page: she is not the recipient; nothing is revealed, the secret stays.
  const carol = await newPage();
  await carol.page.goto(link);
  await carol.page.click('#sign-in-to-read');
  await logIn(carol.page, 'carol', link);
  await expect(h1(carol.page)).resolves.toBe('This secret is for bo*****@e*****.com');
  await expect(carol.page.locator('#other-account').textContent()).resolves.toContain('carol');
  await expect(carol.page.locator('#reveal').count()).resolves.toBe(0);
  await expect(carol.page.content()).resolves.not.toContain(SECRET);
  await inspect(carol.page, carol.violations, 'recipient-04-other-account');
  expect(await stillThere(link)).toBe(true);

  // Alice, told of the refused opening by e-mail: no secret, no link.
  const [told] = await smtp.waitFor('alice@example.com', 1);
  expect(told?.mail.subject).toMatch(/refused to someone who is not its recipient/);
  expect(`${told?.mail.text ?? ''}${String(told?.mail.html)}`).not.toMatch(/https?:\/\/|vpn-root/);

  // Bob signs in from the page and reads it, once.
  const bob = await newPage();
  await bob.page.goto(link);
  await bob.page.click('#sign-in-to-read');
  await logIn(bob.page, 'bob', link);
  await expect(h1(bob.page)).resolves.toBe('Someone sent you a secret');
  await inspect(bob.page, bob.violations, 'recipient-05-recipient');
  await bob.page.click('#reveal');
  await expect(bob.page.locator('#value').inputValue()).resolves.toBe(SECRET);
  await inspect(bob.page, bob.violations, 'recipient-06-read');
  expect(await stillThere(link)).toBe(false);
  await bob.page.goto(link);
  await expect(h1(bob.page)).resolves.toBe('This secret is not available');

  // The receipt: viewed, by bob, and when.
  await alice.page.goto(receipt);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  const viewed = await alice.page.locator('#viewed').textContent();
  expect(viewed).toContain('by bob');
  expect(viewed).toMatch(/\d{1,2}:\d{2}/);
  // The scanner's API attempt and Carol's opening.
  await expect(alice.page.locator('#refused').textContent()).resolves.toBe('2');
  await inspect(alice.page, alice.violations, 'recipient-07-receipt');

  // Her settings: the notifications the share page asks for by default, to her verified address.
  await alice.page.click('nav a:has-text("Settings")');
  await expect(h1(alice.page)).resolves.toBe('Settings');
  await alice.page.check('input[name=notify_revealed]');
  await alice.page.click('#save');
  await expect(alice.page.locator('#saved').count()).resolves.toBe(1);
  await expect(alice.page.locator('#notify-address').textContent()).resolves.toContain('alice@example.com');
  await inspect(alice.page, alice.violations, 'recipient-10-settings');
  await alice.page.goto(`${secrets.url}/`);
  await expect(alice.page.locator('input[name=notify_revealed]').isChecked()).resolves.toBe(true);
}, 180_000);

it('a recipient without an account proves the address with a code from the e-mail and reads it', async () => {
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/`);
  await logIn(alice.page, 'alice', `${secrets.url}/`);
  const { link, receipt } = await share(alice.page, NO_ACCOUNT_SECRET, 'dana@example.com');
  // The link e-mail says the secret is for this address only.
  const [linkMail] = await smtp.waitFor('dana@example.com', 1);
  expect(linkMail?.mail.text).toContain('for this address only');

  const dana = await newPage();
  await dana.page.goto(link);
  await expect(h1(dana.page)).resolves.toBe('This secret is for da*****@e*****.com');
  await dana.page.click('#send-code');
  await expect(h1(dana.page)).resolves.toBe('Enter the code sent to da*****@e*****.com');
  await inspect(dana.page, dana.violations, 'recipient-08-code');
  const codeMail = (await smtp.waitFor('dana@example.com', 2)).find((m) => /code/i.test(m.mail.subject ?? ''));
  const code = /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1];
  expect(code).toMatch(/^\d{6}$/);
  expect(codeMail?.mail.text).not.toMatch(/https?:\/\//);
  expect(await stillThere(link)).toBe(true);

  // A wrong code first: refused, the secret stays.
  await dana.page.fill('#code', code === '000000' ? '999999' : '000000');
  await dana.page.click('#reveal');
  await expect(dana.page.locator('.error').textContent()).resolves.toContain('4 attempt(s) left');
  await inspect(dana.page, dana.violations, 'recipient-09-wrong-code');
  expect(await stillThere(link)).toBe(true);

  await dana.page.fill('#code', code as string);
  await dana.page.click('#reveal');
  await expect(dana.page.locator('#value').inputValue()).resolves.toBe(NO_ACCOUNT_SECRET);
  expect(await stillThere(link)).toBe(false);

  await alice.page.goto(receipt);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('received');
  await expect(alice.page.locator('#viewed').textContent()).resolves.toContain('by verified address');
}, 180_000);

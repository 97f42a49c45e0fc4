import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import request from 'supertest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { capturingLogger, startSmtp, testRedisUrl, type TestSmtp } from '@hush/testing';
import { zkShare } from '@hush/zk';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';
import { VIEWPORTS, connectChromium, cspViolations, downloadedBytes, inEveryLook, inspectPage, screenshot } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWebWithIdentity } from '../../../services/secrets/test/identity.js';
import { hashKey } from '../../../services/secrets/src/secrets/keys.js';

/**
 * Zero-knowledge secrets in Chromium (docs/zero-knowledge.md): the share page encrypts in the
 * browser, the reveal page decrypts there, and the service holds only ciphertext. Every request
 * the browsers send is captured and searched, as are the service's log lines, a pg_dump of its
 * database and every Redis key it wrote: neither a plaintext, nor a key, nor a passphrase is in
 * any of them. A link without its key, or with another, consumes nothing. Recipient-only,
 * receipts, notifications and requests work as in the server's mode. Every page: no CSP
 * violation, no serious or critical axe-core violation, no sideways scrolling, screenshots
 * (1280 px light, 360 px dark) in test-artifacts/zero-knowledge/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'zero-knowledge');
const PASSWORD = 'correct horse battery staple';
const FILE_BYTES = 10 * 1024 * 1024;

let identity: IdentityHarness;
let secrets: SecretsHarness;
let smtp: TestSmtp;
let mailer: Mailer;
let browser: Browser;
let prefix: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtp();
  prefix = `e2e-${randomBytes(5).toString('hex')}`;
  ({ identity, h: secrets } = await startWebWithIdentity({ QUEUE_PREFIX: prefix, RELAY_INTERVAL_MS: '100' }));
  const mailerConfig = readMailerConfig({
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: smtp.url,
    MANAGEMENT_PORT: '0',
    MAIL_SEALING_KEY: secrets.env['MAIL_SEALING_KEY'],
  });
  mailer = await serveMailer(mailerConfig, capturingLogger('mailer-zero-knowledge').logger);
  for (const name of ['alice', 'bob']) await identity.cli('users', 'create', name, '--password', PASSWORD, '--email', `${name}@example.com`, '--email-verified');
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await mailer?.close();
  await secrets?.close();
  await identity?.close();
  await smtp?.close();
});

/** What a browser context sent: every request's URL, headers and body. */
interface Sent {
  url: string;
  headers: string;
  body: Buffer;
}

async function newPage(): Promise<{ page: Page; context: BrowserContext; violations: string[]; sent: Sent[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, acceptDownloads: true });
  const sent: Sent[] = [];
  context.on('request', (r) => sent.push({ url: r.url(), headers: JSON.stringify(r.headers()), body: r.postDataBuffer() ?? Buffer.alloc(0) }));
  const page = await context.newPage();
  return { page, context, violations: cspViolations(page), sent };
}

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);
const h1 = (page: Page) => page.locator('h1').textContent();

async function logIn(page: Page, username: string, backTo: string) {
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if ((await h1(page))?.startsWith('Allow')) await page.click('button:has-text("Allow")');
  await page.waitForURL(backTo);
}

/** The needles as they could appear: text, and the bytes of a key in base64url and hex. */
const forms = (needle: string | Buffer): Buffer[] =>
  typeof needle === 'string' ? [Buffer.from(needle)] : [needle, Buffer.from(needle.toString('base64url')), Buffer.from(needle.toString('hex'))];

/** Every needle that appears in `haystack`. */
const found = (haystack: Buffer, needles: (string | Buffer)[]) => needles.filter((n) => forms(n).some((f) => haystack.includes(f)));

function inRequests(sent: Sent[], needles: (string | Buffer)[]): (string | Buffer)[] {
  return sent.flatMap((s) => found(Buffer.concat([Buffer.from(s.url), Buffer.from(s.headers), s.body]), needles));
}

/** The service's database as pg_dump writes it. */
async function databaseDump(): Promise<Buffer> {
  const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', secrets.config.DATABASE_URL], { maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' });
  return stdout;
}

/** Every Redis key the service and its queue wrote, serialised (DUMP), with its name. */
async function redisDump(): Promise<Buffer> {
  const redis = new Redis(testRedisUrl);
  try {
    const parts: Buffer[] = [];
    for (const pattern of [`${secrets.config.REDIS_PREFIX}*`, `${prefix}*`]) {
      for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
        for (const key of keys) parts.push(Buffer.from(key), (await redis.dumpBuffer(key)) ?? Buffer.alloc(0));
      }
    }
    return Buffer.concat(parts);
  } finally {
    redis.disconnect();
  }
}

/** Whether the secret behind `link` is still stored, unread. */
async function stillThere(link: string): Promise<boolean> {
  const key = /\/secret\/([0-9a-z]{31})/.exec(link)?.[1] as string;
  return (await secrets.db('secrets').where('secret_hash', hashKey(key)).first()) !== undefined;
}

const keyOf = (link: string) => Buffer.from(link.slice(link.indexOf('#') + 1), 'base64url');
const withoutKey = (link: string) => link.slice(0, link.indexOf('#'));

/** Shares from the share page as it stands (fields filled by `fill`); the full link and the receipt's URL. */
async function share(page: Page, fill: () => Promise<void>): Promise<{ link: string; receipt: string }> {
  await page.goto(`${secrets.url}/`);
  await expect(page.locator('#mode').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await fill();
  await page.click('#share');
  await page.waitForURL(/\/private\/[0-9a-z]{31}\?created=1$/);
  await expect(h1(page)).resolves.toBe('Your secret link is ready');
  await expect(page.locator('#full-link').isVisible()).resolves.toBe(true);
  const link = await page.locator('#link').inputValue();
  expect(link).toMatch(new RegExp(`^${secrets.url}/secret/[0-9a-z]{31}#[A-Za-z0-9_-]{43}$`));
  // The key left the address bar (and the history) as soon as the page had it.
  expect(page.url()).not.toContain('#');
  return { link, receipt: page.url().replace(/\?.*$/, '') };
}

/** Opens a secret's page and reveals it with the script (see `revealed`). */
async function reveal(page: Page, link: string, passphrase?: string): Promise<void> {
  await page.goto(link);
  await expect(h1(page)).resolves.toBe('Someone sent you a secret');
  if (passphrase !== undefined) await page.fill('#passphrase', passphrase);
  await page.click('#reveal');
}

/** The value the script decrypted, once it shows it. */
async function revealed(page: Page): Promise<string> {
  await page.locator('#result').waitFor({ state: 'visible' });
  return page.locator('#value').inputValue();
}

/** The script's refusal, once it shows it. */
async function refused(page: Page): Promise<string> {
  const box = page.locator('[data-zk-error]');
  await box.waitFor({ state: 'visible' });
  return (await box.textContent()) ?? '';
}

it('a text and a 10 MiB file: encrypted in the browser, stored as ciphertext, opened once elsewhere; no key or plaintext in any request, log, row or Redis key', async () => {
  const text = `deploy-token: ${randomBytes(12).toString('hex')} Ω`;
  const marker = randomBytes(32);
  const file = Buffer.concat([marker, randomBytes(FILE_BYTES - 64), marker]);
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/`);
  await logIn(alice.page, 'alice', `${secrets.url}/`);
  await expect(alice.page.locator('#mode').textContent()).resolves.toContain('Encrypted in your browser');
  await expect(alice.page.locator('#file-box').isVisible()).resolves.toBe(true);
  await inspect(alice.page, alice.violations, 'zk-01-share');

  const textShare = await share(alice.page, () => alice.page.fill('#secret', text));
  await expect(alice.page.locator('#encryption').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await expect(alice.page.locator('figure.qr').count()).resolves.toBe(0);
  await inspect(alice.page, alice.violations, 'zk-02-created');
  // Later visits of the receipt cannot show the key: it is kept nowhere.
  await alice.page.goto(textShare.receipt);
  await expect(alice.page.locator('#link').inputValue()).resolves.toBe(withoutKey(textShare.link));
  await expect(alice.page.locator('#key-note').isVisible()).resolves.toBe(true);
  await inspect(alice.page, alice.violations, 'zk-03-receipt');

  const fileShare = await share(alice.page, () => alice.page.setInputFiles('#file', { name: 'backup.tar', mimeType: 'application/x-tar', buffer: file }));
  await expect(alice.page.locator('#file').textContent()).resolves.toContain(`${FILE_BYTES + 16 * 160} bytes`);

  // At rest, both are ciphertext: the envelopes and the file's records.
  const atRest = [text, keyOf(textShare.link), keyOf(fileShare.link), marker];
  expect(found(await databaseDump(), atRest)).toEqual([]);
  expect(await secrets.db('zk_file_records').count({ n: '*' }).first()).toEqual({ n: 160 });

  // A link without its key, or with another one, consumes nothing.
  const stranger = await newPage();
  await stranger.page.goto(withoutKey(textShare.link));
  await expect(stranger.page.locator('#key-box').isVisible()).resolves.toBe(true);
  await stranger.page.click('#reveal');
  await expect(refused(stranger.page)).resolves.toContain('has no key');
  await stranger.page.fill('#key', randomBytes(32).toString('base64url'));
  await stranger.page.click('#reveal');
  await expect(refused(stranger.page)).resolves.toContain('not the key of this secret');
  await inspect(stranger.page, stranger.violations, 'zk-04-wrong-key');
  await stranger.page.goto(`${withoutKey(fileShare.link)}#${randomBytes(32).toString('base64url')}`);
  await stranger.page.click('#reveal');
  await expect(refused(stranger.page)).resolves.toContain('not the key of this secret');
  expect(await stillThere(textShare.link)).toBe(true);
  expect(await stillThere(fileShare.link)).toBe(true);

  // A second browser opens both, once.
  const bob = await newPage();
  await bob.page.goto(textShare.link);
  await expect(bob.page.locator('#mode').textContent()).resolves.toContain('decrypts it here');
  await inspect(bob.page, bob.violations, 'zk-05-reveal');
  await reveal(bob.page, textShare.link);
  await expect(revealed(bob.page)).resolves.toBe(text);
  expect(bob.page.url()).toBe(withoutKey(textShare.link));
  await inspect(bob.page, bob.violations, 'zk-06-revealed');
  await reveal(bob.page, fileShare.link);
  const [download] = await Promise.all([bob.page.waitForEvent('download'), bob.page.locator('#download').click()]);
  expect(download.suggestedFilename()).toBe('backup.tar');
  expect((await downloadedBytes(download)).equals(file)).toBe(true);
  await inspect(bob.page, bob.violations, 'zk-07-file');
  for (const link of [textShare.link, fileShare.link]) {
    await bob.page.goto(link);
    await expect(h1(bob.page)).resolves.toBe('This secret is not available');
    expect(await stillThere(link)).toBe(false);
  }
  await alice.page.goto(textShare.receipt);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('received');

  // Nowhere: the browsers' requests, the logs, the database, Redis.
  const needles = [text, keyOf(textShare.link), keyOf(fileShare.link), marker];
  expect(inRequests([...alice.sent, ...bob.sent, ...stranger.sent], needles)).toEqual([]);
  // The upload went out as ciphertext (it was captured, so the search above covered it).
  expect(alice.sent.some((s) => s.url.endsWith('/share/zk/file') && s.body.length === FILE_BYTES + 16 * 160)).toBe(true);
  expect(found(Buffer.from(secrets.logs.join('\n')), needles)).toEqual([]);
  expect(found(await databaseDump(), needles)).toEqual([]);
  expect(found(await redisDump(), needles)).toEqual([]);
}, 300_000);

it('with a passphrase: wrong ones are counted and capped by the service, the right one opens it, the passphrase is never sent', async () => {
  const passphrase = `blue tulip ${randomBytes(4).toString('hex')}`;
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/`);
  await logIn(alice.page, 'alice', `${secrets.url}/`);
  const fill = (value: string) => async () => {
    await alice.page.fill('#secret', value);
    await alice.page.fill('#passphrase', passphrase);
  };
  const first = await share(alice.page, fill('behind a passphrase'));
  const second = await share(alice.page, fill('destroyed after five'));

  const bob = await newPage();
  await reveal(bob.page, first.link, 'wrong guess');
  await expect(refused(bob.page)).resolves.toContain('4 attempts left');
  await inspect(bob.page, bob.violations, 'zk-08-wrong-passphrase');
  await bob.page.fill('#passphrase', 'another guess');
  await bob.page.click('#reveal');
  await expect(refused(bob.page)).resolves.toContain('3 attempts left');
  await bob.page.fill('#passphrase', passphrase);
  await bob.page.click('#reveal');
  await expect(revealed(bob.page)).resolves.toBe('behind a passphrase');

  await bob.page.goto(second.link);
  for (let i = 1; i <= 5; i++) {
    await bob.page.fill('#passphrase', `guess ${i}`);
    await bob.page.click('#reveal');
    await expect(refused(bob.page)).resolves.toContain(i < 5 ? `${5 - i} attempt` : 'destroyed');
  }
  expect(await stillThere(second.link)).toBe(false);
  await alice.page.goto(second.receipt);
  await expect(alice.page.locator('#state').getAttribute('data-state')).resolves.toBe('burned');

  expect(inRequests([...alice.sent, ...bob.sent], [passphrase, keyOf(first.link), keyOf(second.link)])).toEqual([]);
}, 180_000);

it('recipient-only: the e-mail holds the link without its key; Bob signs in and opens it; the receipt names him and Alice is notified', async () => {
  const text = `vpn: ${randomBytes(8).toString('hex')}`;
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/`);
  await logIn(alice.page, 'alice', `${secrets.url}/`);
  const { link, receipt } = await share(alice.page, async () => {
    await alice.page.fill('#secret', text);
    await alice.page.fill('#recipient', 'bob@example.com');
    await alice.page.check('#recipient_only');
    await alice.page.check('input[name=notify_revealed]');
  });
  const [mail] = await smtp.waitFor('bob@example.com', 1);
  expect(mail?.mail.text).toContain(withoutKey(link));
  expect(mail?.mail.text).not.toContain(link.slice(link.indexOf('#')));
  expect(mail?.mail.text).toContain('its key is not in this e-mail');

  // Signed out, with the full link: who it is for, nothing read; the key waits in this tab while Bob signs in.
  const bob = await newPage();
  await bob.page.goto(link);
  await expect(h1(bob.page)).resolves.toBe('This secret is for bo*****@e*****.com');
  await inspect(bob.page, bob.violations, 'zk-09-recipient');
  await bob.page.click('#sign-in-to-read');
  await logIn(bob.page, 'bob', withoutKey(link));
  await bob.page.click('#reveal');
  await expect(revealed(bob.page)).resolves.toBe(text);
  expect(await stillThere(link)).toBe(false);

  await alice.page.goto(receipt);
  await expect(alice.page.locator('#viewed').textContent()).resolves.toContain('by bob');
  await expect(alice.page.locator('#encryption').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  const told = (await smtp.waitFor('alice@example.com', 1)).find((m) => /read/i.test(m.mail.subject ?? ''));
  expect(told).toBeDefined();
  expect(`${told?.mail.text ?? ''}${String(told?.mail.html)}`).not.toMatch(new RegExp(`https?://|${text}`));
  expect(inRequests([...alice.sent, ...bob.sent], [text, keyOf(link)])).toEqual([]);
}, 180_000);

it("a request: Alice's browser makes the key pair, Bob's encrypts for it, only Alice's opening key reads it", async () => {
  const text = `staging-db: ${randomBytes(8).toString('hex')}`;
  const alice = await newPage();
  await alice.page.goto(`${secrets.url}/ask`);
  await logIn(alice.page, 'alice', `${secrets.url}/ask`);
  await expect(alice.page.locator('#request-mode').isVisible()).resolves.toBe(true);
  await alice.page.fill('#label', 'Staging database password');
  await alice.page.click('#create-request');
  await alice.page.waitForURL(/\/ask\?created=/);
  const openingKey = await alice.page.locator('#opening-key').inputValue();
  expect(openingKey).toMatch(/^[A-Za-z0-9_-]{128}$/);
  await inspect(alice.page, alice.violations, 'zk-10-request');
  const requestLink = await alice.page.locator('#request-link').inputValue();

  const bob = await newPage();
  await bob.page.goto(requestLink);
  await expect(bob.page.locator('#mode').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await bob.page.fill('#secret', text);
  await bob.page.click('#send');
  await bob.page.locator('#sent').waitFor({ state: 'visible' });
  await inspect(bob.page, bob.violations, 'zk-11-answered');
  expect((await request(secrets.url).get(`/api/v1/request/${requestLink.split('/request/')[1]}`)).status).toBe(404);

  await alice.page.click('nav a:has-text("My secrets")');
  await alice.page.locator('ul.items > li').first().locator('a:has-text("receipt")').click();
  await expect(alice.page.locator('#encryption').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await alice.page.click('#read');
  await expect(h1(alice.page)).resolves.toBe('Someone sent you a secret');
  await alice.page.click('#reveal');
  await expect(revealed(alice.page)).resolves.toBe(text);
  await inspect(alice.page, alice.violations, 'zk-12-request-read');
  expect(inRequests([...alice.sent, ...bob.sent], [text, Buffer.from(openingKey, 'base64url')])).toEqual([]);
}, 180_000);

/** Screenshots of a page without JavaScript (axe needs it: the same pages with it are inspected above). */
const screenshots = (page: Page, name: string) =>
  inEveryLook(page, async (width, scheme) => {
    await screenshot(page, ARTIFACTS, name, width, scheme);
  });

it('without JavaScript: the share page says the server encrypts, and a zero-knowledge link says it needs the script and consumes nothing', async () => {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
  const page = await context.newPage();
  const violations = cspViolations(page);
  await page.goto(`${secrets.url}/`);
  await logIn(page, 'alice', `${secrets.url}/`);
  await expect(page.locator('#mode').getAttribute('data-mode')).resolves.toBe('server');
  await expect(page.locator('#mode').textContent()).resolves.toContain('Encrypted by the server');
  await expect(page.locator('#file-box').isVisible()).resolves.toBe(false);
  await screenshots(page, 'zk-13-share-without-script');
  await page.fill('#secret', 'encrypted by the server');
  await page.click('#share');
  await expect(h1(page)).resolves.toBe('Your secret link is ready');
  await expect(page.locator('#encryption').getAttribute('data-mode')).resolves.toBe('server');
  await expect(page.locator('figure.qr svg').count()).resolves.toBe(1);
  await expect(page.locator('#link').inputValue()).resolves.toMatch(new RegExp(`^${secrets.url}/secret/[0-9a-z]{31}$`));

  const { auth } = await secrets.account();
  const { link } = await zkShare({ baseUrl: secrets.url, authorization: auth }, { text: 'needs the script' });
  await page.goto(link);
  await expect(page.locator('#needs-script').isVisible()).resolves.toBe(true);
  await expect(page.locator('#reveal').isVisible()).resolves.toBe(false);
  await screenshots(page, 'zk-14-reveal-without-script');
  expect(violations).toEqual([]);
  expect(await stillThere(link)).toBe(true);
  await context.close();
}, 120_000);

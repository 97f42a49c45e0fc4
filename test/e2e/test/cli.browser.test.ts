import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { type Browser, type Page } from 'playwright-core';
import { freePort } from '@hush/testing';
import { hashKey } from '../../../services/secrets/src/secrets/keys.js';
import { cspViolations, downloadedBytes } from './chromium.js';
import { hushUser, type Hush, PASSWORD, startHushSystem, type HushSystem } from './hush.js';
import type { IdentitySystem } from './identity-system.js';

/**
 * The `hush` command line against the whole system (identity, the secrets service with its web
 * app, the mailer), run as a real process: a link hush makes opens in Chromium and one Chromium
 * makes opens in hush, once; a link without its key, or with another, consumes nothing; wrong
 * passphrases are counted and told; every failure has its exit code (docs/cli.md).
 */
let hushSystem: HushSystem;
let system: IdentitySystem;
let browser: Browser;
let urls: HushSystem['urls'];
beforeAll(async () => {
  ({ system, browser, urls } = hushSystem = await startHushSystem(['alice']));
}, 60_000);
afterAll(() => hushSystem?.close());

/** A person with hush and an API token of a fresh account (HUSH_API_TOKEN, as a script would have). */
async function withApiToken(): Promise<{ hush: Hush; env: Record<string, string> }> {
  const { custid, token } = await system.secrets.account();
  return { hush: hushUser(urls), env: { HUSH_API_TOKEN: `${custid}:${token}` } };
}

const LINK = /^http:\/\/127\.0\.0\.1:\d+\/secret\/[0-9a-z]{31}#[A-Za-z0-9_-]{43}$/;
const withoutKey = (link: string) => link.slice(0, link.indexOf('#'));
const keyOf = (link: string) => link.slice(link.indexOf('#') + 1);

/** Whether the secret behind `link` is still stored, unread. */
async function stillThere(link: string): Promise<boolean> {
  const key = /\/secret\/([0-9a-z]{31})/.exec(link)?.[1] as string;
  return (await system.secrets.db('secrets').where('secret_hash', hashKey(key)).first()) !== undefined;
}

/** Opens a secret's page in Chromium and reveals it with the page's script. */
async function revealInBrowser(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await expect(page.locator('h1').textContent()).resolves.toBe('Someone sent you a secret');
  await page.click('#reveal');
}

it('a text and a file shared with hush open in Chromium, once; the link without its key, or with another, consumes nothing', async () => {
  const { hush: alice, env } = await withApiToken();
  const text = `db-password: ${randomBytes(8).toString('hex')} Ω`;
  const shared = await alice.run(['share', '--ttl', '1h'], { input: `${text}\n`, env });
  expect(shared).toMatchObject({ code: 0, stderr: expect.stringContaining(`${urls.secretsUrl}/private/`) });
  const link = shared.stdout.trim();
  expect(link).toMatch(LINK);

  const content = Buffer.concat([randomBytes(150_000), Buffer.from('end')]);
  writeFileSync(join(alice.home, 'report.bin'), content);
  const fileShared = await alice.run(['share', 'report.bin'], { env });
  expect(fileShared.code).toBe(0);
  const fileLink = fileShared.stdout.trim();
  expect(fileLink).toMatch(LINK);

  const bob = hushUser(urls);
  const cut = await bob.run(['read', withoutKey(link)]);
  expect(cut).toMatchObject({ code: 5, stdout: '', stderr: expect.stringContaining('has no key') });
  const altered = await bob.run(['read', `${withoutKey(link)}#${randomBytes(32).toString('base64url')}`]);
  expect(altered).toMatchObject({ code: 5, stdout: '', stderr: expect.stringContaining('not the key of this secret') });
  expect(await stillThere(link)).toBe(true);

  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const violations = cspViolations(page);
  await revealInBrowser(page, link);
  await page.locator('#result').waitFor({ state: 'visible' });
  await expect(page.locator('#value').inputValue()).resolves.toBe(text);
  await revealInBrowser(page, fileLink);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
  expect(download.suggestedFilename()).toBe('report.bin');
  expect((await downloadedBytes(download)).equals(content)).toBe(true);
  expect(violations).toEqual([]);
  await context.close();

  for (const spent of [link, fileLink]) {
    expect(await bob.run(['read', spent])).toMatchObject({ code: 4, stdout: '', stderr: expect.stringContaining('not available') });
  }
  // The service had ciphertext only: neither the text nor a key is in its logs.
  const logs = system.secrets.logs.join('\n');
  for (const needle of [text, keyOf(link), keyOf(fileLink)]) expect(logs).not.toContain(needle);
}, 120_000);

/** Shares from the web app's share page, signed in as alice; the full link. */
async function shareInBrowser(page: Page, fill: () => Promise<void>): Promise<string> {
  await page.goto(`${urls.secretsUrl}/`);
  if ((await page.locator('h1').textContent()) === 'Sign in to Hush') {
    await page.fill('#username', 'alice');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]:has-text("Sign in")');
    if ((await page.locator('h1').textContent())?.startsWith('Allow')) await page.click('button:has-text("Allow")');
    await page.waitForURL(`${urls.secretsUrl}/`);
  }
  await expect(page.locator('#mode').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await fill();
  await page.click('#share');
  await page.waitForURL(/\/private\/[0-9a-z]{31}\?created=1$/);
  return page.locator('#link').inputValue();
}

it('a text and a file shared in Chromium are read by hush: the text on stdout, the file under its name (never over another) or -o', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const text = `api-key: ${randomBytes(8).toString('hex')}\nsecond line`;
  const textLink = await shareInBrowser(page, () => page.fill('#secret', text));
  const content = randomBytes(70_000);
  const fileLink = await shareInBrowser(page, () => page.setInputFiles('#file', { name: 'backup.tar', mimeType: 'application/x-tar', buffer: content }));
  const otherContent = randomBytes(1000);
  const otherLink = await shareInBrowser(page, () => page.setInputFiles('#file', { name: 'id_ed25519', mimeType: '', buffer: otherContent }));
  await context.close();
  for (const link of [textLink, fileLink, otherLink]) expect(link).toMatch(LINK);

  const bob = hushUser(urls);
  expect(await bob.run(['read', textLink])).toMatchObject({ code: 0, stdout: text });

  writeFileSync(join(bob.home, 'backup.tar'), 'an older backup');
  const saved = await bob.run(['read', fileLink]);
  expect(saved).toMatchObject({ code: 0, stdout: '', stderr: expect.stringContaining('Saved backup (1).tar (70000 bytes)') });
  expect(readFileSync(join(bob.home, 'backup (1).tar')).equals(content)).toBe(true);
  expect(readFileSync(join(bob.home, 'backup.tar'), 'utf8')).toBe('an older backup');
  expect(statSync(join(bob.home, 'backup (1).tar')).mode & 0o777).toBe(0o600);

  expect(await bob.run(['read', otherLink, '-o', 'key'])).toMatchObject({ code: 0, stderr: expect.stringContaining('Saved key (1000 bytes)') });
  expect(readFileSync(join(bob.home, 'key')).equals(otherContent)).toBe(true);
  expect(await bob.run(['read', fileLink])).toMatchObject({ code: 4 });
}, 120_000);

it('a passphrase: a wrong one is counted and its attempts left told, none without a terminal is refused, and at a terminal hush asks again until the right one', async () => {
  const { hush: alice, env } = await withApiToken();
  const passphrase = `blue tulip ${randomBytes(4).toString('hex')}`;
  writeFileSync(join(alice.home, 'passphrase.txt'), `${passphrase}\n`);
  const shared = await alice.run(['share', '--passphrase-file', 'passphrase.txt'], { input: 'behind a passphrase', env });
  expect(shared.code).toBe(0);
  const link = shared.stdout.trim();

  const bob = hushUser(urls);
  expect(await bob.run(['read', link], { env: { HUSH_PASSPHRASE: 'wrong guess' } })).toMatchObject({ code: 6, stderr: expect.stringContaining('4 attempts left') });
  expect(await bob.run(['read', link])).toMatchObject({ code: 6, stderr: expect.stringContaining('needs its passphrase') });

  const reading = bob.atTerminal(['read', link]);
  await reading.printed(/Passphrase \(not shown\): /);
  reading.type('another guess\r');
  await reading.printed(/3 attempts left[^]*Passphrase \(not shown\): /);
  reading.type(`${passphrase}\r`);
  const read = await reading.done;
  expect(read.code).toBe(0);
  expect(read.stdout).toContain('behind a passphrase');
  // Nothing typed was shown.
  expect(read.stdout).not.toContain('another guess');
  expect(read.stdout).not.toContain(passphrase);
  expect(await stillThere(link)).toBe(false);
}, 120_000);

it('at a terminal, hush share asks for the text and the passphrase (twice) without showing them; a passphrase on the command line is refused', async () => {
  const { hush: alice, env } = await withApiToken();
  const text = `typed ${randomBytes(4).toString('hex')}`;
  const sharing = alice.atTerminal(['share', '--passphrase'], { env });
  await sharing.printed(/Secret \(not shown; Enter ends it\): /);
  sharing.type(`${text}\r`);
  await sharing.printed(/Passphrase \(not shown\): /);
  sharing.type('open sesame\r');
  await sharing.printed(/The same passphrase again: /);
  sharing.type('open sesame\r');
  const shared = await sharing.done;
  expect(shared.code).toBe(0);
  expect(shared.stdout).not.toContain(text);
  expect(shared.stdout).not.toContain('open sesame');
  const link = /http:\S+#[A-Za-z0-9_-]{43}/.exec(shared.stdout)?.[0] as string;
  expect(await hushUser(urls).run(['read', link], { env: { HUSH_PASSPHRASE: 'open sesame' } })).toMatchObject({ code: 0, stdout: text });

  const refused = await alice.run(['share', '--passphrase=hunter2'], { input: 'x', env });
  expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('no passphrase on its command line') });
}, 120_000);

it('--qr draws the link as a QR code on stderr; the link alone is on stdout', async () => {
  const { hush: alice, env } = await withApiToken();
  const shared = await alice.run(['share', '--qr'], { input: 'scan me', env });
  expect(shared.code).toBe(0);
  const link = shared.stdout.trim();
  expect(link).toMatch(LINK);
  // Half blocks, two modules a character, 4 modules of quiet zone all round: back to the module matrix.
  const { size, data } = QRCode.create(link, { errorCorrectionLevel: 'M' }).modules;
  const rows = shared.stderr.split('\n').filter((line) => line.length === size + 8 && /^[ \u2580\u2584\u2588]+$/.test(line));
  expect(rows).toHaveLength(Math.ceil((size + 8) / 2));
  const drawn: boolean[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cell = rows[(y + 4) >> 1]?.[x + 4];
      drawn.push((y + 4) % 2 === 0 ? cell === '\u2580' || cell === '\u2588' : cell === '\u2584' || cell === '\u2588');
    }
  }
  expect(drawn).toEqual([...data].map((m) => m !== 0));
}, 60_000);

it('exit codes: a server that cannot be reached is 3, a link that is not one 2, an unknown command 2', async () => {
  const closed = `http://127.0.0.1:${await freePort()}`;
  const nowhere = hushUser({ secretsUrl: closed, authUrl: closed });
  expect(await nowhere.run(['share'], { input: 'x' })).toMatchObject({ code: 3, stderr: expect.stringContaining(`Cannot reach ${closed}`) });
  expect(await nowhere.run(['login'])).toMatchObject({ code: 3, stderr: expect.stringContaining(`Cannot reach ${closed}`) });
  expect(await nowhere.run(['read', `${closed}/secret/${'a'.repeat(31)}#${randomBytes(32).toString('base64url')}`])).toMatchObject({ code: 3 });
  expect(await nowhere.run(['read', 'https://example.com/not-a-secret'])).toMatchObject({ code: 2, stderr: expect.stringContaining('not a Hush secret link') });
  expect(await nowhere.run(['publish'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no command "publish"') });
  expect(await nowhere.run(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: hush <command>') });
}, 60_000);

import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { cspViolations } from './chromium.js';
import { hushUser, loginThroughBrowser, type Hush, PASSWORD, startHushSystem, type HushSystem } from './hush.js';
import type { IdentitySystem } from './identity-system.js';

/**
 * `hush login` through identity's device authorization flow, approved in Chromium as a person
 * does, and what a login lets hush do: a recipient-only secret for another person, a request
 * whose answer only this machine opens. Its tokens are kept 0600, refreshed when expired, and a
 * login ended at identity is told as such (exit 7); `hush logout` forgets it.
 */
let hushSystem: HushSystem;
let system: IdentitySystem;
let browser: Browser;
let urls: HushSystem['urls'];
beforeAll(async () => {
  ({ system, browser, urls } = hushSystem = await startHushSystem(['alice', 'bob', 'carol']));
}, 60_000);
afterAll(() => hushSystem?.close());

/** A person with hush, signed in through the browser. */
async function signedIn(username: string): Promise<Hush> {
  const hush = hushUser(urls);
  const login = await loginThroughBrowser(hush, browser, username, PASSWORD);
  expect(login).toMatchObject({ code: 0, stdout: `Signed in as ${username} at ${urls.authUrl}\n` });
  return hush;
}

const withoutKey = (link: string) => link.slice(0, link.indexOf('#'));

it('hush login: approved in the browser, its tokens kept for the person alone; hush share --recipient-only for bob, whom only bob reads', async () => {
  const alice = await signedIn('alice');
  const folder = join(alice.home, '.config', 'hush');
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  expect(statSync(join(folder, 'credentials.json')).mode & 0o777).toBe(0o600);
  expect(Object.values(alice.credentials()['logins'] as object)).toEqual([
    expect.objectContaining({ client_id: 'hush-cli', username: 'alice', refresh_token: expect.any(String) }),
  ]);

  const text = `vpn: ${randomBytes(8).toString('hex')}`;
  const shared = await alice.run(['share', '--recipient', 'bob@example.com', '--recipient-only'], { input: text });
  expect(shared).toMatchObject({ code: 0, stderr: expect.stringContaining('bob@example.com is e-mailed the link without its key') });
  const link = shared.stdout.trim();
  const [mail] = await system.smtp.waitFor('bob@example.com', 1);
  expect(mail?.mail.text).toContain(withoutKey(link));
  expect(mail?.mail.text).not.toContain(link);

  // Signed out, and signed in as someone else: refused, nothing read.
  expect(await hushUser(urls).run(['read', link])).toMatchObject({ code: 7, stderr: expect.stringContaining('This secret is for bo*****@e*****.com: sign in') });
  expect(await alice.run(['read', link])).toMatchObject({ code: 8, stderr: expect.stringContaining('only by its recipient') });

  const bob = await signedIn('bob');
  expect(await bob.run(['read', link])).toMatchObject({ code: 0, stdout: text });
  expect(await bob.run(['read', link])).toMatchObject({ code: 4 });
}, 180_000);

it('hush request: the person asked answers in the browser; hush answers lists it and hush read opens it with the opening key kept here, then forgets that key', async () => {
  const alice = await signedIn('alice');
  const asked = await alice.run(['request', 'Staging database password', '--ttl', '1h']);
  expect(asked.code).toBe(0);
  const requestLink = asked.stdout.trim();
  expect(requestLink).toMatch(new RegExp(`^${urls.secretsUrl}/request/\\S+$`));
  const requestsFile = join(alice.home, '.config', 'hush', 'requests.json');
  expect(statSync(requestsFile).mode & 0o777).toBe(0o600);

  const text = `staging-db: ${randomBytes(8).toString('hex')}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);
  await page.goto(requestLink);
  await expect(page.locator('#mode').getAttribute('data-mode')).resolves.toBe('zero-knowledge');
  await page.fill('#secret', text);
  await page.click('#send');
  await page.locator('#sent').waitFor({ state: 'visible' });
  expect(violations).toEqual([]);
  await context.close();

  const answers = await alice.run(['answers']);
  expect(answers.code).toBe(0);
  const [answerLink, label] = answers.stdout.trim().split('\t');
  expect(label).toBe('Staging database password');
  expect(answerLink).toMatch(new RegExp(`^${urls.secretsUrl}/secret/[0-9a-z]{31}$`));

  // Another person's hush, signed in or not, has no opening key for it.
  const carol = await signedIn('carol');
  expect(await carol.run(['read', answerLink as string])).toMatchObject({ code: 5, stderr: expect.stringContaining('no opening key here opens it') });

  expect(await alice.run(['read', answerLink as string])).toMatchObject({ code: 0, stdout: text });
  expect(JSON.parse(readFileSync(requestsFile, 'utf8'))).toEqual({ version: 1, requests: [] });
  expect(await alice.run(['answers'])).toMatchObject({ code: 0, stdout: '', stderr: 'No answer is waiting.\n' });
}, 180_000);

/** Makes the login's access token look expired, as it is five minutes after it was issued. */
function expire(hush: Hush): void {
  const file = hush.credentials() as { logins: Record<string, { expires_at: number }> };
  for (const login of Object.values(file.logins)) login.expires_at = 0;
  hush.writeCredentials(file);
}

const refreshTokenOf = (hush: Hush) => Object.values(hush.credentials()['logins'] as Record<string, { refresh_token: string }>)[0]?.refresh_token;

it('an expired access token is refreshed; a login ended at identity is "expired" (exit 7) and forgotten; hush logout revokes and forgets', async () => {
  const alice = await signedIn('alice');
  const before = refreshTokenOf(alice);
  expire(alice);
  expect(await alice.run(['share'], { input: 'after a refresh' })).toMatchObject({ code: 0 });
  expect(refreshTokenOf(alice)).not.toBe(before);

  await system.identity.cli('users', 'logout', 'alice');
  expire(alice);
  expect(await alice.run(['share'], { input: 'too late' })).toMatchObject({ code: 7, stdout: '', stderr: expect.stringContaining('login has expired or was ended') });
  expect(alice.credentials()['logins']).toEqual({});
  expect(await alice.run(['request', 'anything'])).toMatchObject({ code: 7, stderr: expect.stringContaining('sign in first') });

  const again = hushUser(urls);
  await loginThroughBrowser(again, browser, 'alice', PASSWORD);
  const refreshToken = refreshTokenOf(again) as string;
  expect(await again.run(['logout'])).toMatchObject({ code: 0, stdout: `Signed out alice at ${urls.authUrl}.\n` });
  expect(again.credentials()['logins']).toEqual({});
  // Revoked at identity: the refresh token is refused there.
  const refused = await fetch(`${system.identity.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'hush-cli' }),
  });
  expect(refused.status).toBe(400);
  expect(await again.run(['logout'])).toMatchObject({ code: 0, stdout: `Not signed in at ${urls.authUrl}.\n` });
}, 180_000);

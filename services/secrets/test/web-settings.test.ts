import { Browser, parseForms } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { startWebWithIdentity } from './identity.js';
import type { Harness } from './harness.js';

/**
 * The web app's settings: the notifications the share page asks for by default, per account, and
 * the account's verified address as where they go; signed in through the real identity service.
 */
const PASSWORD = 'correct horse battery staple';
let identity: IdentityHarness;
let h: Harness;

beforeAll(async () => {
  ({ identity, h } = await startWebWithIdentity());
  await identity.cli('users', 'create', 'vera', '--password', PASSWORD, '--email', 'vera@example.com', '--email-verified');
  await identity.cli('users', 'create', 'otto', '--password', PASSWORD);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await identity?.close();
});

async function signedIn(username: string, path: string) {
  const browser = new Browser(h.url);
  const start = await browser.navigate(path);
  const idp = new Browser(identity.url);
  const login = await idp.navigate(start.leftTo as string);
  let page = await idp.submit(login.html, 0, { username, password: PASSWORD });
  if (!page.leftTo) page = await idp.submit(page.html, 0, {});
  const done = await browser.send(page.leftTo as string);
  const landed = await browser.navigate(done.headers['location'] as string);
  return { browser, html: landed.html };
}

const formOf = (html: string, action: string) => parseForms(html).find((f) => f.action === action);

it('saves the default notifications of an account, which its share page then ticks, and says where they go', async () => {
  const { browser, html } = await signedIn('vera', '/settings');
  expect(html).toContain('<h1>Settings</h1>');
  expect(html).toContain('vera@example.com');
  expect(html).not.toMatch(/name="notify_revealed" value="1" checked/);
  const saved = await browser.navigate('/settings', { ...formOf(html, '/settings')?.hidden, notify_revealed: '1', notify_expired: '1' });
  expect(saved.url).toBe(`${h.url}/settings?saved=1`);
  expect(saved.html).toMatch(/name="notify_revealed" value="1" checked/);
  expect(saved.html).toMatch(/name="notify_expired" value="1" checked/);
  expect(saved.html).not.toMatch(/name="notify_burned" value="1" checked/);

  const share = await browser.navigate('/');
  expect(share.html).toMatch(/name="notify_revealed" value="1" checked/);
  expect(share.html).not.toMatch(/name="notify_burned" value="1" checked/);
  // Shared with the boxes as ticked and no address: the account's verified one is used.
  const res = await browser.send('/', { ...formOf(share.html, '/')?.hidden, secret: 'defaults', ttl: '3600', action: 'share', notify_revealed: '1' });
  expect(res.status).toBe(303);
  const rows = await h.db('metadata').select('notify_on', 'notify_sealed').where('custid', 'vera');
  expect(rows).toEqual([{ notify_on: ['revealed'], notify_sealed: expect.any(Buffer) as unknown }]);
}, 60_000);

it("another account's settings are its own; without a verified address the page says so", async () => {
  const { html } = await signedIn('otto', '/settings');
  expect(html).not.toMatch(/checked/);
  expect(html).toContain('no verified e-mail address');
  const share = await signedIn('otto', '/');
  expect(share.html).not.toMatch(/name="notify_revealed" value="1" checked/);
}, 60_000);

it('a signed-out visitor is sent to sign in; a form without its token is refused', async () => {
  const browser = new Browser(h.url);
  const res = await browser.send('/settings');
  expect(res.status).toBe(303);
  expect(res.headers['location']).toMatch(/^\/auth\/sign-in/);
  const { browser: vera } = await signedIn('vera', '/settings');
  expect((await vera.send('/settings', { notify_burned: '1' })).status).toBe(400);
  expect(await h.db('account_settings').select('notify_on').where('custid', 'vera')).toEqual([{ notify_on: ['revealed', 'expired'] }]);
}, 60_000);

import { Browser, parseForms } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { startWebWithIdentity } from './identity.js';
import type { Harness } from './harness.js';

/** The share form's notification boxes, signed in through the real identity service. */
const PASSWORD = 'correct horse battery staple';
let identity: IdentityHarness;
let h: Harness;

beforeAll(async () => {
  ({ identity, h } = await startWebWithIdentity());
  await identity.cli('users', 'create', 'nora', '--password', PASSWORD);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await identity?.close();
});

async function signedInSharePage() {
  const browser = new Browser(h.url);
  const start = await browser.navigate('/');
  const idp = new Browser(identity.url);
  const login = await idp.navigate(start.leftTo as string);
  let page = await idp.submit(login.html, 0, { username: 'nora', password: PASSWORD });
  if (!page.leftTo) page = await idp.submit(page.html, 0, {});
  const done = await browser.send(page.leftTo as string);
  const landed = await browser.navigate(done.headers['location'] as string);
  const form = parseForms(landed.html).find((f) => f.action === '/');
  return { browser, html: landed.html, hidden: form?.hidden ?? {} };
}

it('offers the events and an address, and stores the ones ticked with the secret', async () => {
  const { browser, html, hidden } = await signedInSharePage();
  for (const name of ['notify_revealed', 'notify_burned', 'notify_expired', 'notify_email']) expect(html).toContain(`name="${name}"`);
  const res = await browser.send('/', { ...hidden, secret: 'tell me', ttl: '3600', action: 'share', notify_revealed: '1', notify_expired: '1', notify_email: 'nora@example.com' });
  expect(res.status).toBe(303);
  const rows = await h.db('metadata').select('notify_on').where('custid', 'nora');
  expect(rows.map((r: { notify_on: string[] | null }) => r.notify_on)).toEqual([['revealed', 'expired']]);
}, 60_000);

it('asks for an address when the account name is none, keeping the boxes ticked', async () => {
  const { browser, hidden } = await signedInSharePage();
  const res = await browser.send('/', { ...hidden, secret: 'tell me too', ttl: '3600', action: 'share', notify_burned: '1' });
  expect(res.status).toBe(400);
  expect(res.text).toContain('notify_email');
  expect(res.text).toMatch(/name="notify_burned" value="1" checked/);
}, 60_000);

import { Browser, parseForms } from '@hush/testing';
import { startIdentity, type Harness } from '../harness.js';

/**
 * Promise: a form is taken only from our own pages. Besides its CSRF token, a console's POST must
 * not come, by the browser's own account, from elsewhere: `Sec-Fetch-Site` other than
 * same-origin, an `Origin` of another site, or `Origin: null` (what a sandboxed frame, a
 * `data:` page or a cross-origin redirect sends) without `Sec-Fetch-Site: same-origin` (our pages
 * send no Referer, so a same-origin POST of an old browser also says `null`: the browsers of today
 * say `same-origin` beside it). Refused with 403, and nothing changes.
 */

const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h?.close());

async function profileForm() {
  const username = `olga${Math.random().toString(36).slice(2, 8)}`;
  const user = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD);
  const browser = new Browser(h.url);
  const login = await browser.navigate(`${ACCOUNT}/`);
  const page = await browser.submit(login.html, 0, { username, password: PASSWORD });
  expect(page.res.status).toBe(200);
  const form = parseForms(page.html).find((f) => f.action === `${ACCOUNT}/`)!;
  return { browser, form, userId: user.id };
}

describe('the account console’s profile form, with its valid CSRF token', () => {
  it.each([
    [{ origin: 'null' }],
    [{ origin: 'null', referer: 'OUR-PAGE' }],
    [{ origin: 'https://evil.example' }],
    [{ 'sec-fetch-site': 'cross-site', origin: 'null' }],
    [{ 'sec-fetch-site': 'same-site' }],
  ])('sent with %o: 403, nothing saved', async (headers) => {
    const { browser, form, userId } = await profileForm();
    const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'OUR-PAGE' ? `${h.url}${ACCOUNT}/` : v]));
    const res = await browser.send(form.action, { ...form.hidden, firstName: 'Mallory' }, sent);
    expect(res.status).toBe(403);
    expect((await h.identity.context.users.findById(userId))?.firstName).not.toBe('Mallory');
  });

  it.each([[{}], [{ 'sec-fetch-site': 'same-origin', origin: 'null' }], [{ 'sec-fetch-site': 'same-origin' }]])(
    'sent with %o (our own page, or a client that says nothing): saved',
    async (headers) => {
      const { browser, form, userId } = await profileForm();
      const res = await browser.send(form.action, { ...form.hidden, firstName: 'Olga' }, headers);
      expect(res.status).toBe(303);
      expect((await h.identity.context.users.findById(userId))?.firstName).toBe('Olga');
    },
  );
});

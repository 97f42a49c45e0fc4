import { parseForms } from '@hush/testing';
import { startSecretsWithAccount, type Account, type Harness } from '../harness.js';

/**
 * Promise: a form is taken only from our own pages. A reveal or burn form with its valid CSRF
 * token is still refused (403, the secret stays) when the browser says it comes from elsewhere:
 * `Sec-Fetch-Site` other than same-origin, another site's `Origin`, or `Origin: null` (a sandboxed
 * frame, a `data:` page) without `Sec-Fetch-Site: same-origin`. Our pages' Referrer-Policy is
 * `same-origin`, so a browser's POST from them names our origin even where it sends no
 * Sec-Fetch-Site (plain HTTP to a host that is not localhost).
 */

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount()));
afterAll(() => h?.close());

async function revealForm() {
  const shared = await h.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send({ secret: 'only from our page' });
  const { secret_key: key, metadata_key: metadata } = shared.body as { secret_key: string; metadata_key: string };
  const page = await h.http.get(`/secret/${key}`);
  expect(page.headers['referrer-policy']).toBe('same-origin');
  const csrf = parseForms(page.text).find((f) => 'csrf' in f.hidden)!.hidden['csrf']!;
  const cookie = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const post = (headers: Record<string, string>) => h.http.post(`/secret/${key}`).set('Cookie', cookie).set(headers).type('form').send({ csrf });
  const state = async () => ((await h.http.get(`/api/v1/private/${metadata}`).set('Authorization', alice.auth)).body as { state: string }).state;
  return { post, state };
}

describe('the reveal form, with its valid CSRF token', () => {
  it.each([[{ Origin: 'null' }], [{ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }], [{ Origin: 'https://evil.example' }], [{ 'Sec-Fetch-Site': 'same-site' }]])(
    'sent with %o: 403, the secret stays',
    async (headers) => {
      const { post, state } = await revealForm();
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect(await state()).toBe('new');
    },
  );

  it.each([[{ 'Sec-Fetch-Site': 'same-origin', Origin: 'null' }], [{ Origin: 'ORIGIN' }], [{}]])(
    'sent with %o (our own page, or a client that says nothing): revealed',
    async (headers) => {
      const { post } = await revealForm();
      const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'ORIGIN' ? h.url : v]));
      const res = await post(sent);
      expect(res.status).toBe(200);
      expect(res.text).toContain('only from our page');
    },
  );
});

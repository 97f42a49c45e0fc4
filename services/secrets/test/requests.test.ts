import { parseForms } from '@hush/testing';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

let h: Harness;
let alice: Account;
let bob: Account;
beforeAll(async () => {
  ({ h, alice } = await startSecretsWithAccount());
  bob = await h.account();
});
afterAll(() => h.close());

type SecretRequest = { id: string; link: string | null; state: string; label: string };

const createRequest = async (fields: Record<string, string>, who: Account = alice) => {
  const res = await h.http.post('/api/v1/requests').set('Authorization', who.auth).send(fields);
  expect(res.status).toBe(201);
  return res.body as SecretRequest;
};
const keyOf = (r: SecretRequest) => (r.link ?? '').split('/request/')[1] ?? '';
const answer = (r: SecretRequest, fields: Record<string, string>) => h.http.post(`/api/v1/request/${keyOf(r)}`).send(fields);

/** The answer to a request, as its owner finds it: in recent, with its receipt and (while unread) its secret key. */
async function answerOf(label: string) {
  const recent = await h.http.get('/api/v1/private/recent').set('Authorization', alice.auth);
  const item = (recent.body as { request_label?: string; metadata_key: string }[]).find((m) => m.request_label === label);
  expect(item).toBeDefined();
  const meta = await h.http.get(`/api/v1/private/${item?.metadata_key}`).set('Authorization', alice.auth);
  return meta.body as { secret_key: string; metadata_key: string; state: string; received_by?: string; request_label?: string };
}

describe('secret requests through the API', () => {
  it('creates, lists and answers a request; the link is then spent; only the requester reads the secret, once', async () => {
    const request = await createRequest({ label: 'VPN password', ttl: '3600', secret_ttl: '600', recipient: 'bob@example.com' });
    expect(request).toMatchObject({ label: 'VPN password', state: 'open', passphrase_policy: 'optional', secret_ttl: 600, recipient: expect.stringMatching(/\*/) });
    expect(request.link).toMatch(new RegExp(`^${h.url}/request/[0-9a-z]{31}$`));
    expect(JSON.stringify(request)).not.toContain('bob@example.com');

    const listed = await h.http.get('/api/v1/requests').set('Authorization', alice.auth);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([request]);
    expect((await h.http.get('/api/v1/requests').set('Authorization', bob.auth)).body).toEqual([]);

    const sent = await answer(request, { secret: 'hunter2-vpn' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ status: 'sent', requester: alice.custid, label: 'VPN password' });
    const again = await answer(request, { secret: 'second try' });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('unknown_request');
    expect((await h.http.get('/api/v1/requests').set('Authorization', alice.auth)).body[0]).toMatchObject({ state: 'fulfilled', link: null, fulfilled: expect.any(Number) });

    const meta = await answerOf('VPN password');
    expect(meta).toMatchObject({ state: 'new', request_label: 'VPN password', ttl: 600 });
    // Anyone else holding the secret link gets nothing, and the secret stays.
    const anonymous = await h.http.post(`/api/v1/secret/${meta.secret_key}`);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.code).toBe('secret_for_another_account');
    expect((await h.http.post(`/api/v1/secret/${meta.secret_key}`).set('Authorization', bob.auth)).status).toBe(403);

    const read = await h.http.post(`/api/v1/secret/${meta.secret_key}`).set('Authorization', alice.auth);
    expect(read.status).toBe(200);
    expect(read.body.value).toBe('hunter2-vpn');
    expect((await h.http.post(`/api/v1/secret/${meta.secret_key}`).set('Authorization', alice.auth)).status).toBe(404);
    const after = await h.http.get(`/api/v1/private/${meta.metadata_key}`).set('Authorization', alice.auth);
    expect(after.body).toMatchObject({ state: 'received', received_by: alice.custid, received: expect.any(Number), secret_key: null });
  });

  it('of many concurrent answers to one request, exactly one is stored', async () => {
    const request = await createRequest({ label: 'race' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => answer(request, { secret: `racer ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array.from({ length: 11 }, () => 404)]);
    const stored = await h.db('metadata').where({ request_label: 'race' }).count<{ count: string }[]>('* as count');
    expect(Number(stored[0]?.count)).toBe(1);
  });

  it('cancel closes an open request of the caller only; a cancelled link takes nothing', async () => {
    const request = await createRequest({ label: 'to cancel' });
    expect((await h.http.delete(`/api/v1/requests/${request.id}`).set('Authorization', bob.auth)).status).toBe(404);
    const cancelled = await h.http.delete(`/api/v1/requests/${request.id}`).set('Authorization', alice.auth);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: request.id, state: 'cancelled', link: null, cancelled: expect.any(Number) });
    expect((await h.http.delete(`/api/v1/requests/${request.id}`).set('Authorization', alice.auth)).status).toBe(404);
    expect((await answer(request, { secret: 'too late' })).status).toBe(404);
    expect((await h.http.delete('/api/v1/requests/not-an-id').set('Authorization', alice.auth)).status).toBe(404);
  });

  it('follows the passphrase policy, and the requester reads with the passphrase', async () => {
    const required = await createRequest({ label: 'with passphrase', passphrase_policy: 'required' });
    const missing = await answer(required, { secret: 'locked' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/asks for a passphrase/);
    expect((await answer(required, { secret: 'locked', passphrase: 'tulip' })).status).toBe(201);
    const meta = await answerOf('with passphrase');
    expect((await h.http.post(`/api/v1/secret/${meta.secret_key}`).set('Authorization', alice.auth)).body.code).toBe('passphrase_required');
    const read = await h.http.post(`/api/v1/secret/${meta.secret_key}`).set('Authorization', alice.auth).send({ passphrase: 'tulip' });
    expect(read.body.value).toBe('locked');

    const none = await createRequest({ label: 'no passphrase', passphrase_policy: 'none' });
    expect((await answer(none, { secret: 'x', passphrase: 'p' })).status).toBe(400);
  });

  it('refuses bad input with a clear 400, a missing account with 401, and a secret over the requester’s plan with 413', async () => {
    for (const [fields, pattern] of [
      [{}, /label/],
      [{ label: 'x'.repeat(201) }, /label/],
      [{ label: 'ok', passphrase_policy: 'maybe' }, /passphrase_policy/],
      [{ label: 'ok', ttl: '5' }, /ttl/],
      [{ label: 'ok', secret_ttl: '99999999' }, /secret_ttl/],
      [{ label: 'ok', recipient: 'not an address' }, /recipient/],
    ] as const) {
      const res = await h.http.post('/api/v1/requests').set('Authorization', alice.auth).send(fields);
      expect({ fields, status: res.status }).toEqual({ fields, status: 400 });
      expect(res.body.message).toMatch(pattern);
    }
    expect((await h.http.post('/api/v1/requests').send({ label: 'x' })).status).toBe(401);
    const request = await createRequest({ label: 'big' });
    expect((await answer(request, { secret: '' })).status).toBe(400);
    expect((await answer(request, { secret: 'x'.repeat(1001) })).status).toBe(413);
    expect((await answer(request, { secret: 'x'.repeat(1000) })).status).toBe(201);
  });
});

describe('the page behind a request link (no JavaScript, no account)', () => {
  type Form = { csrf: string; cookie: string };
  const formOn = async (path: string): Promise<Form> => {
    const page = await h.http.get(path);
    const csrf = parseForms(page.text).find((f) => 'csrf' in f.hidden)?.hidden['csrf'] as string;
    const cookie = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    return { csrf, cookie };
  };
  const submit = (path: string, form: Form, fields: Record<string, string>) =>
    h.http
      .post(path)
      .set('Cookie', form.cookie)
      .type('form')
      .send({ csrf: form.csrf, ...fields });

  it('GET spends nothing; the form sends the secret once; then the link says it is closed; key never logged', async () => {
    const request = await createRequest({ label: 'Database password', passphrase_policy: 'none' });
    const path = `/request/${keyOf(request)}`;
    for (let i = 0; i < 2; i++) {
      const page = await h.http.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Database password');
      expect(page.text).toContain(alice.custid);
      expect(page.text).not.toContain('name="passphrase"');
    }
    const form = await formOn(path);
    // Without the page's token (a form posted from elsewhere) nothing is stored.
    expect((await h.http.post(path).type('form').send({ secret: 'no token' })).status).toBe(400);
    expect((await h.http.post(path).set('Origin', 'https://evil.example').set('Cookie', form.cookie).type('form').send({ csrf: form.csrf, secret: 'x' })).status).toBe(403);
    const sent = await submit(path, form, { secret: 'pg: s3cret' });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('Secret sent');
    expect(sent.text).not.toContain('pg: s3cret');
    const again = await submit(path, form, { secret: 'again' });
    expect(again.status).toBe(404);
    expect((await h.http.get(path)).status).toBe(404);
    expect((await answerOf('Database password')).state).toBe('new');
    expect(h.logs.join('\n')).not.toContain(keyOf(request));
  });

  it('a refused secret (too long) shows the form again with the error, and the link stays open', async () => {
    const request = await createRequest({ label: 'too long' });
    const path = `/request/${keyOf(request)}`;
    const form = await formOn(path);
    const refused = await submit(path, form, { secret: 'y'.repeat(1001) });
    expect(refused.status).toBe(413);
    expect(refused.text).toContain('role="alert"');
    expect((await h.http.get(path)).status).toBe(200);
  });
});

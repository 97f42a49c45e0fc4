import { startSecrets, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startSecrets();
});
afterAll(() => h.close());

describe('health and metrics', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await h.http.get('/healthz')).status).toBe(200);
    const ready = await h.http.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ database: 'ok', redis: 'ok' });
  });

  it('counts secrets created, read and burned, and requests per route pattern (never a key)', async () => {
    const { auth } = await h.account();
    const a = await h.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'one' });
    await h.http.post(`/api/v1/secret/${a.body.secret_key}`);
    const b = await h.http.post('/api/v1/generate').set('Authorization', auth);
    await h.http.post(`/api/v1/private/${b.body.metadata_key}/burn`).set('Authorization', auth);

    const res = await h.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/hush_secrets_created_total\{[^}]*kind="share"[^}]*\} 1/);
    expect(res.text).toMatch(/hush_secrets_created_total\{[^}]*kind="generate"[^}]*\} 1/);
    expect(res.text).toMatch(/hush_secrets_read_total\{[^}]*\} 1/);
    expect(res.text).toMatch(/hush_secrets_burned_total\{[^}]*\} 1/);
    expect(res.text).toMatch(/hush_secrets_email_queue_depth\{[^}]*\} 0/);
    expect(res.text).toMatch(/http_requests_total\{[^}]*route="\/api\/v1\/secret\/:key"/);
    expect(res.text).not.toContain(a.body.secret_key);
    expect(res.text).not.toContain(b.body.metadata_key);
  });
});

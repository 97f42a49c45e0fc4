import request from 'supertest';
import { startSecrets, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startSecrets();
});
afterAll(() => h.close());

/** The `http_*` series /metrics holds: one line each. */
async function httpSeries(managementUrl: string): Promise<string[]> {
  const text = (await request(managementUrl).get('/metrics')).text;
  return text.split('\n').filter((line) => line.startsWith('http_'));
}

describe('health and metrics', () => {
  it('answers /healthz and /readyz on the management port', async () => {
    const management = request(h.managementUrl);
    const live = await management.get('/healthz');
    expect([live.status, live.body]).toEqual([200, { status: 'ok', redis: 'ok' }]);
    const ready = await management.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: 'ok' });
  });

  it('answers /metrics, /healthz and /readyz with 404 on the public port, and nothing else on the management port', async () => {
    for (const path of ['/metrics', '/healthz', '/readyz']) expect((await h.http.get(path)).status).toBe(404);
    expect((await request(h.managementUrl).get('/api/v1/status')).status).toBe(404);
  });

  it('counts secrets created, read and burned, and requests per route pattern (never a key)', async () => {
    const { auth } = await h.account();
    const a = await h.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'one' });
    await h.http.post(`/api/v1/secret/${a.body.secret_key}`);
    const b = await h.http.post('/api/v1/generate').set('Authorization', auth);
    await h.http.post(`/api/v1/private/${b.body.metadata_key}/burn`).set('Authorization', auth);

    const res = await request(h.managementUrl).get('/metrics');
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

  it('adds no series for 1,000 requests to random undecodable paths: they all count as `unmatched`', async () => {
    const paths = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const junk = `%ff${i}${Math.random().toString(36).slice(2)}`;
        return [`/api/v1/private/${junk}`, `/api/v1/${junk}`, `/secret/${junk}`, `/API/V1/private/${junk}/burn`, `/${junk}`][i % 5] as string;
      });
    // Each kind of answer once first, so that every series these requests can make exists.
    for (const path of paths(10)) await h.http.get(path);
    const before = await httpSeries(h.managementUrl);
    const batch = paths(1000);
    for (let i = 0; i < batch.length; i += 50) await Promise.all(batch.slice(i, i + 50).map((path) => h.http.get(path)));
    const after = await httpSeries(h.managementUrl);
    expect(after.length).toBe(before.length);
    expect(after.filter((line) => line.includes('%ff'))).toEqual([]);
  });
});

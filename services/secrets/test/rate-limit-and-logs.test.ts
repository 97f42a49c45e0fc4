import { startSecrets, type Harness } from './harness.js';

describe('429: rate limits (RATE_LIMIT_MAX requests per caller per window)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSecrets({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60' });
  });
  afterAll(() => h.close());

  it('limits each account separately, with Retry-After, and writes nothing when limited', async () => {
    const a = await h.account();
    const b = await h.account();
    for (let i = 0; i < 3; i++) expect((await h.http.post('/api/v1/share').set('Authorization', a.auth).send({ secret: 'x' })).status).toBe(200);
    const before = await h.db('metadata').count<{ count: string }[]>('* as count').first();
    const limited = await h.http.post('/api/v1/share').set('Authorization', a.auth).send({ secret: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Rate limit exceeded; retry in \d+ seconds$/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await h.db('metadata').count<{ count: string }[]>('* as count').first()).toEqual(before);
    expect((await h.http.post('/api/v1/share').set('Authorization', b.auth).send({ secret: 'x' })).status).toBe(200);
  });

  it('limits reads per client IP', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await h.http.post(`/api/v1/secret/${'a'.repeat(31)}`)).status);
    expect(codes).toEqual([404, 404, 404, 429]);
  });
});

describe('logs never contain a secret value, passphrase, token, key or e-mail address', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSecrets({ LOG_LEVEL: 'trace' });
  });
  afterAll(() => h.close());

  it('a full session at trace level leaves none of them in the log', async () => {
    const a = await h.account();
    const value = 'sup3r-s3cret-value';
    const created = (await h.http.post('/api/v1/share').set('Authorization', a.auth).send({ secret: value, passphrase: 'pass-phrase-x', recipient: 'mailbox@example.com' })).body;
    await h.http.post(`/api/v1/secret/${created.secret_key}`).send({ passphrase: 'wrong-guess-y' });
    await h.http.post(`/api/v1/secret/${created.secret_key}?passphrase=pass-phrase-x`);
    await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', a.auth);
    await h.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', a.auth);
    await h.http.get('/api/v1/private/recent').set('Authorization', a.auth);
    await h.http.post('/api/v1/share').set('Authorization', a.auth).send({ secret: 'x'.repeat(2000) });
    await h.http.post('/api/v1/share').set('Authorization', 'Bearer not-a-real-token').send({ secret: value });

    const log = h.logs.join('');
    expect(h.logs.length).toBeGreaterThanOrEqual(8);
    expect(log).toContain('/api/v1/secret/:key');
    for (const needle of [value, 'pass-phrase-x', 'wrong-guess-y', 'mailbox@example.com', 'mailbox', created.secret_key, created.metadata_key, a.token, 'not-a-real-token', a.custid]) {
      expect(log).not.toContain(needle);
    }
  });
});

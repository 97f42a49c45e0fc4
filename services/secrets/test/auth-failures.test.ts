import { startSecrets, type Harness } from './harness.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('429: failed authentications per client IP (AUTH_MAX_FAILURES per AUTH_FAILURE_WINDOW)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSecrets({ AUTH_MAX_FAILURES: '5', AUTH_FAILURE_WINDOW: '120' });
  });
  afterAll(() => h.close());

  it('answers 429 with Retry-After past the limit, to wrong API tokens and access tokens alike, and still accepts a right credential', async () => {
    const a = await h.account();
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.http
        .post('/api/v1/share')
        .set('Authorization', basic(a.custid, `wrong-${i}`))
        .send({ secret: 'x' });
      codes.push(res.status);
      expect(res.body).toEqual({ code: 'invalid_credentials', message: expect.any(String) });
    }
    expect(codes).toEqual([401, 401, 401, 401, 401]);

    const limited = await h.http.post('/api/v1/share').set('Authorization', basic(a.custid, 'wrong-5')).send({ secret: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'too_many_auth_failures', message: expect.stringMatching(/^Too many failed authentications; retry in \d+ seconds$/) });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);

    // Another account's name, a Bearer token and a wrong credential on a key route are failures from the same address.
    const other = await h.http.get('/api/v1/private/recent').set('Authorization', basic('someone-else', 'guess'));
    expect(other.status).toBe(429);
    const bearer = await h.http.get('/api/v1/private/recent').set('Authorization', 'Bearer not-a-real-token');
    expect(bearer.status).toBe(429);
    expect(bearer.headers['retry-after']).toMatch(/^\d+$/);
    const onKey = await h.http.post(`/api/v1/private/${'a'.repeat(31)}`).set('Authorization', basic(a.custid, 'guess'));
    expect(onKey.status).toBe(429);

    // API tokens cannot be guessed: the limit makes a failing caller back off, it never locks the owner out.
    const right = await h.http.post('/api/v1/share').set('Authorization', a.auth).send({ secret: 'x' });
    expect(right.status).toBe(200);
    // No credentials at all is not a failed authentication.
    expect((await h.http.get('/api/v1/private/recent')).status).toBe(401);
  });
});

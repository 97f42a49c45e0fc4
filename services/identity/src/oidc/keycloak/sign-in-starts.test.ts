import { bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { signInStarts } from './sign-in-starts.js';

/** A limit that answers `wait` and records whom it was asked about. */
function limitAnswering(wait: number) {
  const asked: string[] = [];
  return { asked, limit: { consume: async (key: string) => (asked.push(key), wait) } };
}

describe('signInStarts', () => {
  it('when the address has used its sign-in starts, then 429 temporarily_unavailable with Retry-After', async () => {
    const { limit } = limitAnswering(7);
    const { request } = await bareProvider(() => [signInStarts(limit)]);
    const res = await request.get(ROUTES.authorization).query({ client_id: 'app', response_type: 'code' }).accept('json');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body.error).toBe('temporarily_unavailable');
  });

  it('when a start is allowed, then oidc-provider answers it and one point is spent', async () => {
    const { asked, limit } = limitAnswering(0);
    const { request } = await bareProvider(() => [signInStarts(limit)]);
    const res = await request.post(ROUTES.device_authorization).type('form').send({ client_id: 'app' }).accept('json');
    expect(res.status).not.toBe(429);
    expect(asked).toHaveLength(1);
  });

  it('when a request resumes a sign-in, asks for a token or is a preflight, then nothing is spent', async () => {
    const { asked, limit } = limitAnswering(7);
    const { request } = await bareProvider(() => [signInStarts(limit)]);
    await request.get(`${ROUTES.authorization}/some-uid`).accept('json');
    await request.post(ROUTES.token).type('form').send({ grant_type: 'client_credentials' });
    await request.options(ROUTES.authorization).set('origin', 'https://app.test');
    expect(asked).toEqual([]);
  });
});

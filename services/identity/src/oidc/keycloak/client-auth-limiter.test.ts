import { Redis } from 'ioredis';
import { RateLimits } from '@hush/common';
import { testRedisUrl, uniquePrefix } from '@hush/testing';
import { APP, bareProvider } from '../../../test/bare-provider.js';
import { hashClientSecret } from '../../clients/client-secret.js';
import { clientAuthLimits } from '../../clients/client-auth-failures.js';
import { applyPatches } from '../patches.js';
import { ROUTES } from '../routes.js';
import { clientAuthLimiter } from './client-auth-limiter.js';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
});
afterAll(() => redis.disconnect());

/** A provider whose clients may fail twice per window; its secrets stored hashed, as ours. */
async function limited() {
  const failures = clientAuthLimits(new RateLimits(redis, uniquePrefix('client-auth-limiter-test')), {
    AUTH_FAILURE_WINDOW: 60,
    CLIENT_AUTH_MAX_FAILURES: 2,
    CLIENT_AUTH_MAX_FAILURES_PER_IP: 100,
    CLIENT_AUTH_BUCKETS: 1024,
  });
  const { provider, request } = await bareProvider(() => [clientAuthLimiter(failures)], { clients: [{ ...APP, client_secret: hashClientSecret('app-secret') }] });
  applyPatches(provider, { failures });
  const token = (clientId: string, secret: string) =>
    request.post(ROUTES.token).type('form').send({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  return { token };
}

describe('clientAuthLimiter', () => {
  it('when a client keeps failing, then after its allowance it gets 429 with Retry-After instead of 401', async () => {
    const { token } = await limited();
    expect((await token('app', 'wrong')).status).toBe(401);
    expect((await token('app', 'wrong')).status).toBe(401);
    const blocked = await token('app', 'wrong');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.error).toBe('temporarily_unavailable');
    expect(blocked.headers['www-authenticate']).toBeUndefined();
  });

  it('when the right secret comes while the client is blocked, then it is still served', async () => {
    const { token } = await limited();
    for (let i = 0; i < 3; i++) await token('app', 'wrong');
    expect((await token('app', 'app-secret')).status).toBe(200);
  });

  it('when the client id is unknown, then its failures are counted and answered the same way', async () => {
    const { token } = await limited();
    expect((await token('nobody', 'wrong')).status).toBe(401);
    expect((await token('nobody', 'wrong')).status).toBe(401);
    expect((await token('nobody', 'wrong')).status).toBe(429);
  });
});

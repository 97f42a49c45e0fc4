import { adminDatabaseUrl, eventually, probeReadiness, TcpProxy, testRedisUrl } from '@hush/testing';
import { createClient, startIdentityService, startSecretsService, type RunningService } from './services.js';

/**
 * Redis hung (it accepts connections and never answers): Redis holds only counters here (rate
 * limits, failure counts), so requests go on without them, after at most the Redis timeout,
 * instead of hanging with it.
 *
 * The bounds below are the deadline the services enforce (REDIS_TIMEOUT_MS), with margins of at
 * least one whole timeout: set to 2 s here, a request that waited it out once more than it should
 * is 2 s slower than one that did not, which is more than a busy machine adds to a request.
 */
const REDIS_TIMEOUT_MS = 2000;

const postgres = new TcpProxy(adminDatabaseUrl);
const redis = new TcpProxy(testRedisUrl);
let secrets: RunningService;
let identity: RunningService;

beforeAll(async () => {
  await Promise.all([postgres.start(), redis.start()]);
  const env = { REDIS_URL: redis.via(testRedisUrl), REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS) };
  [secrets, identity] = await Promise.all([startSecretsService(postgres, env), startIdentityService(postgres, env)]);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([secrets?.close(), identity?.close()]);
  await Promise.all([postgres.stop(), redis.stop()]);
});

it('neither service hangs on a hung Redis', async () => {
  const { api_token } = await secrets.cli<{ api_token: string }>('tokens', 'create', 'bob');
  const client = await createClient(identity);
  redis.stall();
  const started = Date.now();
  const [shared, issued] = await Promise.all([
    fetch(`${secrets.url}/api/v1/share`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`bob:${api_token}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ secret: 'redis is hung' }),
    }),
    fetch(`${identity.url}/auth/realms/public/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope: client.scope }).toString(),
    }),
  ]);
  const ms = Date.now() - started;
  expect(shared.status).toBe(200);
  expect(((await shared.json()) as { secret_key?: string }).secret_key).toEqual(expect.any(String));
  expect(issued.status).toBe(200);
  expect(((await issued.json()) as { access_token?: string }).access_token).toEqual(expect.any(String));
  // eslint-disable-next-line hush/no-wall-clock-assertions -- the services' own deadline; hanging with Redis would not answer at all
  expect(ms).toBeLessThan(5 * REDIS_TIMEOUT_MS);
}, 30_000);

it('after one Redis timeout, the next requests do not each wait it out again, and Redis is used again once it answers', async () => {
  const { api_token } = await secrets.cli<{ api_token: string }>('tokens', 'create', 'carol');
  const share = async () => {
    const started = Date.now();
    const res = await fetch(`${secrets.url}/api/v1/share`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`carol:${api_token}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ secret: 'redis is hung' }),
    });
    await res.text();
    return { status: res.status, ms: Date.now() - started };
  };
  redis.stall();
  try {
    const first = await share();
    expect(first.status).toBe(200);
    // The request's Redis calls share one timeout: the first that times out drops the connection, and the others fail at once.
    // eslint-disable-next-line hush/no-wall-clock-assertions -- one timeout and a margin of one more: two sequential ones would be past it
    expect(first.ms).toBeLessThan(2 * REDIS_TIMEOUT_MS);
    const next = [];
    for (let i = 0; i < 10; i++) next.push(await share());
    expect(next.map((a) => a.status)).toEqual(Array(10).fill(200));
    // eslint-disable-next-line hush/no-wall-clock-assertions -- refused at once takes milliseconds; waiting the timeout takes 2 s
    expect(next.filter((a) => a.ms >= REDIS_TIMEOUT_MS)).toEqual([]);
  } finally {
    await redis.stop();
    await redis.start();
  }
  // Reconnected: the readiness probe's PING is answered again.
  await eventually(async () => ((await probeReadiness(secrets.managementUrl)).status === 200 ? true : undefined), 10_000, 100);
}, 30_000);

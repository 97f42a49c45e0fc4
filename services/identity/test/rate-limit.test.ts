import { type MonitoredCommand, postForm, RedisMonitor, testRedisUrl } from '@hush/testing';
import { basic, createApiAndClient, startIdentity, type Harness } from './harness.js';

let h: Harness;
let tokenUrl: string;
beforeAll(async () => {
  h = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '5', AUTH_FAILURE_WINDOW: '120' });
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
});
afterAll(() => h.close());

describe('brute-force protection on client authentication', () => {
  it('after repeated bad secrets, answers further bad ones 429 with Retry-After, and the right secret still 200', async () => {
    const c = await createApiAndClient(h);
    for (let i = 0; i < 5; i++) {
      const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: `guess-${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: 'guess-5' });
    expect(blocked.status).toBe(429);
    expect(blocked.body['error']).toBe('temporarily_unavailable');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);

    // Basic auth is the same client: a bad secret is still blocked.
    const viaBasic = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read }, { authorization: basic(c.clientId, 'guess-6') });
    expect(viaBasic.status).toBe(429);

    // Someone else's guesses never lock the owner of the right secret out, however it is sent.
    const right = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    expect(right.status).toBe(200);
    expect(right.body['access_token']).toEqual(expect.any(String));
    const rightViaBasic = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(rightViaBasic.status).toBe(200);
  });

  it('blocks one client without affecting another', async () => {
    const victim = await createApiAndClient(h);
    const bystander = await createApiAndClient(h);
    for (let i = 0; i < 6; i++) {
      await postForm(tokenUrl, { grant_type: 'client_credentials', scope: victim.read, client_id: victim.clientId, client_secret: 'nope' });
    }
    const ok = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: bystander.read, client_id: bystander.clientId, client_secret: bystander.clientSecret });
    expect(ok.status).toBe(200);
  });

  it('counts failures on the introspection endpoint too', async () => {
    const c = await createApiAndClient(h);
    const url = `${h.issuer}/protocol/openid-connect/token/introspect`;
    for (let i = 0; i < 5; i++) {
      const res = await postForm(url, { token: 'x', client_id: c.clientId, client_secret: 'bad' });
      expect(res.status).toBe(401);
    }
    const res = await postForm(url, { token: 'x', client_id: c.clientId, client_secret: 'bad' });
    expect(res.status).toBe(429);
    const right = await postForm(url, { token: 'x', client_id: c.clientId, client_secret: c.clientSecret });
    expect(right.status).toBe(200);
  });
});

describe('Redis cost of client authentication', () => {
  it('a token request reads both counters with one MGET and nothing else', async () => {
    const c = await createApiAndClient(h);
    const form = { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret };
    expect((await postForm(tokenUrl, form)).status).toBe(200);

    // MONITOR shows every command with the connection it came from; ours is the one using our prefix.
    const monitor = await RedisMonitor.start(testRedisUrl);
    let seen: MonitoredCommand[];
    try {
      seen = await monitor.during(async () => {
        for (let i = 0; i < 3; i++) expect((await postForm(tokenUrl, form)).status).toBe(200);
      });
    } finally {
      monitor.close();
    }

    const ours = new Set(seen.filter((s) => s.args.some((a) => a.startsWith(h.config.REDIS_PREFIX))).map((s) => s.from));
    expect(ours.size).toBe(1);
    const commands = seen.filter((s) => ours.has(s.from));
    expect(commands.map((s) => s.command)).toEqual(['mget', 'mget', 'mget']);
    expect(commands.every((s) => s.args.length === 2)).toBe(true);
  });
});

describe('per-IP limit', () => {
  let ipHarness: Harness;
  beforeAll(async () => {
    ipHarness = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '100', CLIENT_AUTH_MAX_FAILURES_PER_IP: '4' });
  });
  afterAll(() => ipHarness.close());

  it('an IP that fails against many client ids is blocked across all of them, for bad secrets only', async () => {
    const url = `${ipHarness.issuer}/protocol/openid-connect/token`;
    for (let i = 0; i < 4; i++) {
      await postForm(url, { grant_type: 'client_credentials', scope: 'x', client_id: `unknown-${i}`, client_secret: 'x' });
    }
    const c = await createApiAndClient(ipHarness);
    const res = await postForm(url, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: 'wrong' });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    // Failures made up by someone else on the same address do not lock a valid client out.
    const right = await postForm(url, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    expect(right.status).toBe(200);
  });
});

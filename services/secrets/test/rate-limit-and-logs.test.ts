import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { testRedisUrl } from '@hush/testing';
import { startSecrets, type Account, type Harness } from './harness.js';

/** A TCP relay to Redis that can be cut: refuses new connections and drops the open ones. */
class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor(private readonly target: URL) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

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
    await h.http
      .post('/api/v1/share')
      .set('Authorization', a.auth)
      .send({ secret: 'x'.repeat(2000) });
    await h.http.post('/api/v1/share').set('Authorization', 'Bearer not-a-real-token').send({ secret: value });

    const log = h.logs.join('');
    expect(h.logs.length).toBeGreaterThanOrEqual(8);
    expect(log).toContain('/api/v1/secret/:key');
    for (const needle of [
      value,
      'pass-phrase-x',
      'wrong-guess-y',
      'mailbox@example.com',
      'mailbox',
      created.secret_key,
      created.metadata_key,
      a.token,
      'not-a-real-token',
      a.custid,
    ]) {
      expect(log).not.toContain(needle);
    }
  });
});

describe('429 while Redis is unreachable: each process keeps limiting on its own', () => {
  let h: Harness;
  let account: Account;
  const proxy = new TcpProxy(new URL(testRedisUrl));
  beforeAll(async () => {
    await proxy.start();
    // Inline delivery: the rate limiter is then the app's only use of Redis.
    h = await startSecrets({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60', REDIS_URL: proxy.url, DELIVERY_MODE: 'inline' });
    account = await h.account();
    await proxy.stop();
  });
  afterAll(() => h.close());

  it('limits reads per client IP, with Retry-After', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await h.http.post(`/api/v1/secret/${'b'.repeat(31)}`)).status);
    const limited = await h.http.post(`/api/v1/secret/${'b'.repeat(31)}`);
    expect([...codes, limited.status]).toEqual([404, 404, 404, 429]);
    expect(limited.body).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Rate limit exceeded; retry in \d+ seconds$/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits each account', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await h.http.post('/api/v1/share').set('Authorization', account.auth).send({ secret: 'x' })).status);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

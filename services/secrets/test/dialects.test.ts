import { basic, startSecrets, type Account, type Harness } from './harness.js';

/**
 * Issue 11: each difference between the interface spec and Onetime Secret v1, in both dialects
 * (API_DIALECT=spec and =onetimesecret), and what both now share. Anonymous shares are on in
 * both services here, with a small anonymous limit to test it.
 */
let spec: Harness;
let ots: Harness;
const users = new Map<Harness, Account>();
const auth = (h: Harness) => users.get(h)?.auth ?? '';

beforeAll(async () => {
  const anonymous = { ANONYMOUS_SHARES: 'true', ANONYMOUS_MAX_SECRET_LENGTH: '50', ANONYMOUS_RATE_LIMIT_MAX: '1000' };
  [spec, ots] = await Promise.all([startSecrets(anonymous), startSecrets({ ...anonymous, API_DIALECT: 'onetimesecret' })]);
  users.set(spec, await spec.account());
  users.set(ots, await ots.account());
});
afterAll(() => Promise.all([spec?.close(), ots?.close()]));

const share = (h: Harness, fields: Record<string, unknown>, authorization: string | null = auth(h)) => {
  const req = h.http.post('/api/v1/share');
  if (authorization !== null) req.set('Authorization', authorization);
  return req.send(fields);
};

describe('burn', () => {
  it('spec: the flat metadata with status burned', async () => {
    const { metadata_key } = (await share(spec, { secret: 'x' })).body;
    const res = await spec.http.post(`/api/v1/private/${metadata_key}/burn`).set('Authorization', auth(spec));
    expect(res.body).toMatchObject({ state: 'burned', status: 'burned', secret_key: null, metadata_key });
  });

  it('onetimesecret: { state: <metadata>, secret_shortkey }, the passphrase checked', async () => {
    const created = (await share(ots, { secret: 'x', passphrase: 'sesame' })).body;
    const refused = await ots.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', auth(ots));
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: 'Unknown secret', secret_key: created.metadata_key });
    const wrong = await ots.http.post(`/api/v1/private/${created.metadata_key}/burn`).send({ passphrase: 'nope' });
    expect(wrong.body.message).toBe('Unknown secret');
    const res = await ots.http.post(`/api/v1/private/${created.metadata_key}/burn`).send({ passphrase: 'sesame' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      state: expect.objectContaining({ state: 'burned', secret_key: '', metadata_key: created.metadata_key }),
      secret_shortkey: created.secret_key.slice(0, 6),
    });
    expect(res.body.state).not.toHaveProperty('status');
    expect(res.body.state).not.toHaveProperty('passphrase_required');
  });
});

describe('recipient, state and share_domain on share and generate', () => {
  it('spec: recipient a string, absent when none; state new; share_domain echoed, "" when unset', async () => {
    const withOne = (await share(spec, { secret: 'x', recipient: 'foo@example.com', share_domain: 'Secrets.Example.net' })).body;
    expect(withOne).toMatchObject({ recipient: 'fo*****@e*****.com', state: 'new', share_domain: 'secrets.example.net' });
    const none = (await spec.http.post('/api/v1/generate').set('Authorization', auth(spec))).body;
    expect(none).toMatchObject({ state: 'new', share_domain: '' });
    expect(none).not.toHaveProperty('recipient');
    const meta = (await spec.http.post(`/api/v1/private/${withOne.metadata_key}`).set('Authorization', auth(spec))).body;
    expect(meta).toMatchObject({ recipient: 'fo*****@e*****.com', share_domain: 'secrets.example.net' });
  });

  it('onetimesecret: recipient an array, [] when none; state new; share_domain echoed', async () => {
    const withOne = (await share(ots, { secret: 'x', recipient: 'foo@example.com', share_domain: 'secrets.example.net' })).body;
    expect(withOne).toMatchObject({ recipient: ['fo*****@e*****.com'], state: 'new', share_domain: 'secrets.example.net' });
    const none = (await ots.http.post('/api/v1/generate').set('Authorization', auth(ots))).body;
    expect(none).toMatchObject({ recipient: [], state: 'new', share_domain: '' });
  });

  it('spec: two recipients are a 400; onetimesecret keeps the first valid one and drops the rest', async () => {
    const two = await spec.http.post('/api/v1/share').set('Authorization', auth(spec)).type('form').send('secret=x&recipient[]=a@example.com&recipient[]=b@example.com');
    expect(two.status).toBe(400);
    const res = await ots.http
      .post('/api/v1/share')
      .set('Authorization', auth(ots))
      .type('form')
      .send('secret=x&recipient[]=not-an-address&recipient[]=bar@example.com&recipient[]=c@example.com');
    expect(res.body.recipient).toEqual(['ba*****@e*****.com']);
    const invalid = await share(ots, { secret: 'x', recipient: 'nope' });
    expect(invalid.body.recipient).toEqual([]);
  });
});

describe('ttl', () => {
  it.each([['spec'], ['onetimesecret']])('%s: 0 or empty means the default', async (name) => {
    const h = name === 'spec' ? spec : ots;
    for (const ttl of ['0', '']) expect((await share(h, { secret: 'x', ttl })).body.ttl).toBe(7 * 24 * 3600);
  });

  it('spec: out of range is a 400; onetimesecret clamps it', async () => {
    expect((await share(spec, { secret: 'x', ttl: '5' })).body.code).toBe('invalid_ttl');
    expect((await share(ots, { secret: 'x', ttl: '5' })).body.ttl).toBe(60);
    expect((await share(ots, { secret: 'x', ttl: '999999999' })).body.ttl).toBe(30 * 24 * 3600);
    expect((await share(ots, { secret: 'x', ttl: '-3' })).body.ttl).toBe(7 * 24 * 3600);
  });
});

describe('passphrases', () => {
  it('spec: a wrong passphrase is 401 passphrase_incorrect; onetimesecret: 404 "Unknown secret" with the key', async () => {
    const s1 = (await share(spec, { secret: 'x', passphrase: 'right' })).body;
    const r1 = await spec.http.post(`/api/v1/secret/${s1.secret_key}`).send({ passphrase: 'wrong' });
    expect([r1.status, r1.body.code]).toEqual([401, 'passphrase_incorrect']);
    const s2 = (await share(ots, { secret: 'x', passphrase: 'right' })).body;
    for (const body of [{ passphrase: 'wrong' }, {}]) {
      const r2 = await ots.http.post(`/api/v1/secret/${s2.secret_key}`).send(body);
      expect(r2.status).toBe(404);
      expect(r2.body).toEqual({ message: 'Unknown secret', secret_key: s2.secret_key });
      expect(r2.headers['x-ots-intended-status']).toBe('401');
    }
  });

  it('bounds: spec 1 to 1024 characters; onetimesecret 4 to 128, in its words', async () => {
    expect((await share(spec, { secret: 'x', passphrase: 'p' })).status).toBe(200);
    expect((await share(spec, { secret: 'x', passphrase: 'p'.repeat(1025) })).status).toBe(400);
    expect((await share(ots, { secret: 'x', passphrase: 'abc' })).body).toEqual({ message: 'Passphrase must be at least 4 characters long' });
    expect((await share(ots, { secret: 'x', passphrase: 'p'.repeat(129) })).body).toEqual({ message: 'Passphrase must be no more than 128 characters long' });
    expect((await share(ots, { secret: 'x', passphrase: 'p'.repeat(128) })).status).toBe(200);
  });
});

describe('credentials', () => {
  it.each([['spec'], ['onetimesecret']])('%s: /authcheck checks them', async (name) => {
    const h = name === 'spec' ? spec : ots;
    expect((await h.http.get('/api/v1/authcheck').set('Authorization', auth(h))).body).toEqual({ status: 'nominal', locale: 'en' });
    for (const header of [undefined, basic(users.get(h)?.custid ?? '', 'wrong')]) {
      const req = h.http.get('/api/v1/authcheck');
      if (header) req.set('Authorization', header);
      const res = await req;
      expect(res.status).toBe(name === 'spec' ? 401 : 404);
      if (name === 'onetimesecret') expect(res.body).toEqual({ message: 'Not authorized' });
    }
  });

  it.each([['spec'], ['onetimesecret']])('%s: wrong credentials are refused on /status, /secret and share, even where none are needed', async (name) => {
    const h = name === 'spec' ? spec : ots;
    const wrong = basic(users.get(h)?.custid ?? '', 'wrong');
    const created = (await share(h, { secret: 'kept' })).body;
    const status = name === 'spec' ? 401 : 404;
    expect((await h.http.get('/api/v1/status').set('Authorization', wrong)).status).toBe(status);
    expect((await h.http.post(`/api/v1/secret/${created.secret_key}`).set('Authorization', wrong)).status).toBe(status);
    expect((await share(h, { secret: 'x' }, wrong)).status).toBe(status);
    expect((await h.http.post(`/api/v1/secret/${created.secret_key}`)).body.value).toBe('kept');
  });
});

describe('metadata', () => {
  it('onetimesecret: GET and POST alike mark it viewed; fields absent as in Onetime Secret once received', async () => {
    const created = (await share(ots, { secret: 'x' })).body;
    expect((await ots.http.get(`/api/v1/private/${created.metadata_key}`)).body.state).toBe('new');
    const viewed = (await ots.http.post(`/api/v1/private/${created.metadata_key}`)).body;
    expect(viewed).toMatchObject({ state: 'viewed', secret_key: created.secret_key, passphrase_required: false, ttl: 2 * created.ttl });
    expect(viewed).not.toHaveProperty('received');
    await ots.http.post(`/api/v1/secret/${created.secret_key}`);
    const received = (await ots.http.get(`/api/v1/metadata/${created.metadata_key}`)).body;
    expect(received).toMatchObject({ state: 'received', received: expect.any(Number) });
    for (const field of ['secret_key', 'secret_ttl', 'passphrase_required']) expect(received).not.toHaveProperty(field);
  });
});

describe('anonymous share and generate (ANONYMOUS_SHARES=true)', () => {
  it.each([['spec'], ['onetimesecret']])('%s: custid anon, its own size limit, no recipient, never in recent', async (name) => {
    const h = name === 'spec' ? spec : ots;
    const created = await share(h, { secret: 'anonymous' }, null);
    expect(created.status).toBe(200);
    expect(created.body.custid).toBe('anon');
    expect((await h.http.post('/api/v1/generate')).body.custid).toBe('anon');
    const tooLong = await share(h, { secret: 'x'.repeat(51) }, null);
    expect(tooLong.status).toBe(name === 'spec' ? 413 : 404);
    const mailing = await share(h, { secret: 'x', recipient: 'foo@example.com' }, null);
    expect(mailing.body.message).toBe('An account is required to send emails.');

    // An account that happens to be called `anon` does not see them.
    const { api_token } = await h.cli<{ api_token: string }>('tokens', 'create', 'anon');
    const recent = await h.http.get('/api/v1/private/recent').set('Authorization', basic('anon', api_token));
    expect(recent.status).toBe(200);
    expect(recent.body).toEqual([]);
  });

  it('is refused when ANONYMOUS_SHARES is off (the default), and limited per IP when on', async () => {
    const h = await startSecrets({ API_DIALECT: 'onetimesecret', ANONYMOUS_RATE_LIMIT_MAX: '2' });
    try {
      expect((await share(h, { secret: 'x' }, null)).body).toEqual({ message: 'Not authorized' });
    } finally {
      await h.close();
    }
    const limited = await startSecrets({ ANONYMOUS_SHARES: 'true', ANONYMOUS_RATE_LIMIT_MAX: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await share(limited, { secret: 'x' }, null)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const account = await limited.account();
      expect((await share(limited, { secret: 'x' }, account.auth)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

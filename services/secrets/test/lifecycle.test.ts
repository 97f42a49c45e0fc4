import { expectSecretObject, startSecretsWithAccount, type Account, type Harness } from './harness.js';

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount()));
afterAll(() => h.close());

const share = (fields: Record<string, string>) => h.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send(fields);

describe('share (docs/api.md: the fields of the secret object)', () => {
  it('returns the secret object with integer times, the requested ttl, and no value', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await share({ secret: 'hunter2', ttl: '3600' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expectSecretObject(res.body);
    expect(res.body).toMatchObject({ custid: alice.custid, ttl: 3600, metadata_ttl: 7200, secret_ttl: 3600, passphrase_required: false });
    expect(res.body.created).toBeGreaterThanOrEqual(before - 1);
    expect(res.body.updated).toBe(res.body.created);
    expect(res.body).not.toHaveProperty('value');
    expect(res.body).not.toHaveProperty('recipient');
  });

  it('defaults the ttl to 7 days', async () => {
    const res = await share({ secret: 'x' });
    expect(res.body).toMatchObject({ ttl: 604800, secret_ttl: 604800, metadata_ttl: 1209600 });
  });

  it.each([
    ['the query string', (secret: string) => h.http.post(`/api/v1/share?secret=${encodeURIComponent(secret)}&ttl=600`)],
    ['an urlencoded form', (secret: string) => h.http.post('/api/v1/share').type('form').send({ secret, ttl: '600' })],
    ['a multipart form', (secret: string) => h.http.post('/api/v1/share').field('secret', secret).field('ttl', '600')],
    ['a JSON body', (secret: string) => h.http.post('/api/v1/share').send({ secret, ttl: 600 })],
  ])('accepts parameters from %s', async (_how, send) => {
    const secret = `value with spaces & ünïcödé ${Math.random()}`;
    const res = await send(secret).set('Authorization', alice.auth);
    expect(res.status).toBe(200);
    expect(res.body.ttl).toBe(600);
    const read = await h.http.post(`/api/v1/secret/${res.body.secret_key}`);
    expect(read.body).toEqual({ secret_key: res.body.secret_key, value: secret });
  });

  it('stores the recipient and returns it obfuscated, only when given', async () => {
    const res = await share({ secret: 'x', recipient: 'foo@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.recipient).toBe('fo*****@e*****.com');
    const meta = await h.http.post(`/api/v1/private/${res.body.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body.recipient).toBe('fo*****@e*****.com');
  });

  it('accepts recipient[] with one address (the Ruby client sends that)', async () => {
    const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send('secret=x&recipient[]=bar@example.org');
    expect(res.status).toBe(200);
    expect(res.body.recipient).toBe('ba*****@e*****.org');
  });
});

describe('retrieve, metadata, burn, recent: the life of a secret', () => {
  it('reads once; the second read is a 404; the metadata shows received, then the secret key is gone', async () => {
    const created = (await share({ secret: 's3cr3t', ttl: '300' })).body;

    const meta1 = await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta1.status).toBe(200);
    expect(meta1.body).toMatchObject({ state: 'new', secret_key: created.secret_key, metadata_key: created.metadata_key, received: 0, passphrase_required: false, ttl: 300 });
    const meta2 = await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta2.body.state).toBe('viewed');
    expect(meta2.body.secret_key).toBe(created.secret_key);

    const read = await h.http.post(`/api/v1/secret/${created.secret_key}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ secret_key: created.secret_key, value: 's3cr3t' });

    const again = await h.http.post(`/api/v1/secret/${created.secret_key}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Unknown secret', code: 'unknown_secret' });

    const meta3 = await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta3.body).toMatchObject({ state: 'received', secret_key: null, secret_ttl: 0 });
    expect(Number.isInteger(meta3.body.received)).toBe(true);
    expect(meta3.body.received).toBeGreaterThanOrEqual(created.created);
    for (const f of ['ttl', 'metadata_ttl', 'secret_ttl', 'created', 'updated', 'received']) expect(Number.isInteger(meta3.body[f])).toBe(true);
    expect(meta3.body.metadata_ttl).toBeGreaterThan(300);
  });

  // Issue 11: GET and POST of the metadata behave the same (as in Onetime Secret).
  it.each([['get'], ['post']] as const)('%s on the metadata records the view: new the first time, viewed after', async (method) => {
    const created = (await share({ secret: 'x' })).body;
    const states = [];
    for (let i = 0; i < 2; i++) states.push((await h.http[method](`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth)).body.state);
    expect(states).toEqual(['new', 'viewed']);
  });

  it('burns an unread secret: metadata with state and status burned; the secret is then a 404', async () => {
    const created = (await share({ secret: 'burn me' })).body;
    const burned = await h.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', alice.auth);
    expect(burned.status).toBe(200);
    expect(burned.body).toMatchObject({ status: 'burned', state: 'burned', secret_key: null, secret_ttl: 0, metadata_key: created.metadata_key, custid: alice.custid });
    expect((await h.http.post(`/api/v1/secret/${created.secret_key}`)).status).toBe(404);
    const again = await h.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', alice.auth);
    expect(again.status).toBe(404);
    const meta = await h.http.get(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body.state).toBe('burned');
  });

  it('cannot burn a secret that was read (404, like an unknown key)', async () => {
    const created = (await share({ secret: 'x' })).body;
    await h.http.post(`/api/v1/secret/${created.secret_key}`);
    const res = await h.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', alice.auth);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('unknown_secret');
  });

  it('the metadata key is the capability: metadata and burn need no account, as in Onetime Secret', async () => {
    const created = (await share({ secret: 'x', recipient: 'bob@example.com' })).body;
    const anonymous = await h.http.post(`/api/v1/private/${created.metadata_key}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ custid: alice.custid, metadata_key: created.metadata_key, secret_key: created.secret_key, state: 'new' });
    const other = await h.account();
    expect((await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', other.auth)).body.state).toBe('viewed');
    const burned = await h.http.post(`/api/v1/private/${created.metadata_key}/burn`);
    expect(burned.status).toBe(200);
    expect(burned.body).toMatchObject({ state: 'burned', status: 'burned', secret_key: null });
    expect((await h.http.post(`/api/v1/secret/${created.secret_key}`)).status).toBe(404);
    // ... while the account's list stays the account's: the other account's recent does not show it.
    expect((await h.http.get('/api/v1/private/recent').set('Authorization', other.auth)).body).toEqual([]);
  });

  it('the Onetime Secret v1 aliases work (/create, /metadata/...)', async () => {
    const created = await h.http.post('/api/v1/create').set('Authorization', alice.auth).type('form').send({ secret: 'alias' });
    expect(created.status).toBe(200);
    const meta = await h.http.post(`/api/v1/metadata/${created.body.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body.state).toBe('new');
    const recent = await h.http.get('/api/v1/metadata/recent').set('Authorization', alice.auth);
    expect(recent.status).toBe(200);
  });

  it("and current Onetime Secret's /receipt/... aliases (its Ruby client uses them)", async () => {
    const created = (await share({ secret: 'receipt alias' })).body;
    expect((await h.http.get(`/api/v1/receipt/${created.metadata_key}`)).body.state).toBe('new');
    expect((await h.http.get('/api/v1/receipt/recent').set('Authorization', alice.auth)).body[0].metadata_shortkey).toBe(created.metadata_key.slice(0, 6));
    expect((await h.http.post(`/api/v1/receipt/${created.metadata_key}/burn`)).body.status).toBe('burned');
  });
});

describe('generate', () => {
  it('returns a 12-character value without look-alikes, once; it is readable once', async () => {
    const res = await h.http.post('/api/v1/generate').set('Authorization', alice.auth).type('form').send({ ttl: '120' });
    expect(res.status).toBe(200);
    expectSecretObject(res.body);
    expect(res.body.value).toMatch(/^[^0Oo1lIi\s'"\\`]{12}$/);
    expect(res.body.ttl).toBe(120);
    const meta = await h.http.post(`/api/v1/private/${res.body.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body).not.toHaveProperty('value');
    const read = await h.http.post(`/api/v1/secret/${res.body.secret_key}`);
    expect(read.body.value).toBe(res.body.value);
  });

  it('honours length up to 128, and a passphrase', async () => {
    const res = await h.http.post('/api/v1/generate').set('Authorization', alice.auth).send({ length: 128, passphrase: 'pw' });
    expect(res.status).toBe(200);
    expect(res.body.value).toHaveLength(128);
    expect(res.body.passphrase_required).toBe(true);
    const read = await h.http.post(`/api/v1/secret/${res.body.secret_key}`).send({ passphrase: 'pw' });
    expect(read.body.value).toBe(res.body.value);
  });
});

describe('recent', () => {
  it('lists only the caller’s metadata, newest first, with null keys; pages with a cursor', async () => {
    const carol = await h.account();
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.http
        .post('/api/v1/share')
        .set('Authorization', carol.auth)
        .type('form')
        .send({ secret: `n${i}` });
      keys.push(res.body.metadata_key);
    }
    await h.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send({ secret: 'not carol' });

    const page1 = await h.http.get('/api/v1/private/recent?limit=3').set('Authorization', carol.auth);
    expect(page1.status).toBe(200);
    expect(Array.isArray(page1.body)).toBe(true);
    expect(page1.body).toHaveLength(3);
    expect(page1.body.map((m: { metadata_shortkey: string }) => m.metadata_shortkey)).toEqual(
      keys
        .slice(2)
        .reverse()
        .map((k) => k.slice(0, 6)),
    );
    // Issue 11: the authenticated owner gets each item's metadata key (null before, a defect).
    expect(page1.body.map((m: { metadata_key: string }) => m.metadata_key)).toEqual(keys.slice(2).reverse());
    for (const item of page1.body) {
      expect(item).toMatchObject({ custid: carol.custid, secret_key: null, state: 'new' });
      expect(Number.isInteger(item.created)).toBe(true);
    }
    const cursor = page1.headers['x-next-cursor'];
    expect(page1.headers['link']).toContain('rel="next"');
    const page2 = await h.http.get(`/api/v1/private/recent?limit=3&before=${cursor}`).set('Authorization', carol.auth);
    expect(page2.body.map((m: { metadata_shortkey: string }) => m.metadata_shortkey)).toEqual(
      keys
        .slice(0, 2)
        .reverse()
        .map((k) => k.slice(0, 6)),
    );
    expect(page2.headers['x-next-cursor']).toBeUndefined();
  });

  it('defaults to 100 items', async () => {
    const dave = await h.account();
    await Promise.all(
      Array.from({ length: 102 }, (_, i) =>
        h.http
          .post('/api/v1/share')
          .set('Authorization', dave.auth)
          .send({ secret: `d${i}` }),
      ),
    );
    const res = await h.http.get('/api/v1/private/recent').set('Authorization', dave.auth);
    expect(res.body).toHaveLength(100);
    expect(res.headers['link']).toContain('rel="next"');
  });
});

describe('status', () => {
  it('answers without credentials', async () => {
    const res = await h.http.get('/api/v1/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'nominal', locale: 'en' });
  });
});

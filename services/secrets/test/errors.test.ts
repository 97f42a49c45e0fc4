import { rowCounts, startSecretsWithAccount, type Account, type Harness } from './harness.js';

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount()));
afterAll(() => h.close());

/** Every failing request must answer `{ message, code }` with no stack and leave the tables as they were. */
async function expectError(
  send: () => Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Record<string, string> }>,
  status: number,
  code: string,
  message?: RegExp,
) {
  const before = await rowCounts(h.db);
  const res = await send();
  expect({ status: res.status, code: res.body['code'] }).toEqual({ status, code });
  expect(typeof res.body['message']).toBe('string');
  if (message) expect(res.body['message']).toMatch(message);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
  expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
  expect(await rowCounts(h.db)).toEqual(before);
  return res;
}

const share = () => h.http.post('/api/v1/share').set('Authorization', alice.auth);

describe('400: bad input, named clearly, nothing written', () => {
  it.each([
    ['no secret', {}, 'secret_required', /did not provide anything to share/],
    ['an empty secret', { secret: '' }, 'secret_required', /anything to share/],
    ['a non-numeric ttl', { secret: 'x', ttl: 'soon' }, 'invalid_ttl', /from 60 to 2592000/],
    ['a ttl below the minimum', { secret: 'x', ttl: '59' }, 'invalid_ttl', /from 60 to 2592000/],
    ['a ttl above the maximum', { secret: 'x', ttl: '2592001' }, 'invalid_ttl', /from 60 to 2592000/],
    ['a negative ttl', { secret: 'x', ttl: '-5' }, 'invalid_ttl', /60/],
    ['a fractional ttl', { secret: 'x', ttl: '60.5' }, 'invalid_ttl', /60/],
    ['a bad recipient', { secret: 'x', recipient: 'not-an-address' }, 'invalid_recipient', /not a valid e-mail address/],
    ['a recipient with spaces', { secret: 'x', recipient: 'a b@example.com' }, 'invalid_recipient', /e-mail/],
  ])('share with %s', async (_name, form, code, message) => {
    await expectError(() => share().type('form').send(form), 400, code, message);
  });

  it('two recipients', async () => {
    await expectError(() => share().type('form').send('secret=x&recipient=a@example.com&recipient=b@example.com'), 400, 'invalid_recipient', /only one/);
  });

  it('a secret given twice', async () => {
    await expectError(() => share().type('form').send('secret=a&secret=b'), 400, 'invalid_parameter', /secret must be given once/);
  });

  it('a JSON object where a string belongs', async () => {
    await expectError(() => share().send({ secret: { nested: true } }), 400, 'invalid_parameter');
  });

  it('malformed JSON', async () => {
    await expectError(() => share().set('content-type', 'application/json').send('{"secret": '), 400, 'malformed_body', /JSON/);
  });

  it('a JSON array body', async () => {
    await expectError(() => share().send(['secret']), 400, 'malformed_body');
  });

  it('a file in a multipart form', async () => {
    await expectError(() => share().field('secret', 'x').attach('file', Buffer.from('data'), 'a.txt'), 400, 'malformed_body', /files are not accepted/);
  });

  it('a broken multipart body', async () => {
    await expectError(
      () => share().set('content-type', 'multipart/form-data; boundary=xyz').send('--xyz\r\nContent-Disposition: form-data; name="secret"\r\n\r\nunterminated'),
      400,
      'malformed_body',
    );
  });

  it.each([
    ['too short', '7'],
    ['too long', '129'],
    ['not a number', 'twelve'],
  ])('generate with a length %s', async (_name, length) => {
    await expectError(() => h.http.post('/api/v1/generate').set('Authorization', alice.auth).type('form').send({ length }), 400, 'invalid_length', /from 8 to 128/);
  });

  // ttl=0 means the default: Onetime Secret's clients send it for that.
  it.each([['-1'], ['5'], ['99999999']])('generate with a bad ttl %p', async (ttl) => {
    await expectError(() => h.http.post('/api/v1/generate').set('Authorization', alice.auth).type('form').send({ ttl }), 400, 'invalid_ttl');
  });

  it('recent with a bad limit or cursor', async () => {
    await expectError(() => h.http.get('/api/v1/private/recent?limit=0').set('Authorization', alice.auth), 400, 'invalid_parameter', /limit/);
    await expectError(() => h.http.get('/api/v1/private/recent?limit=501').set('Authorization', alice.auth), 400, 'invalid_parameter', /limit/);
    await expectError(() => h.http.get('/api/v1/private/recent?before=garbage').set('Authorization', alice.auth), 400, 'invalid_parameter', /cursor/);
  });

  it('a passphrase longer than 1024 characters', async () => {
    await expectError(() => share().send({ secret: 'x', passphrase: 'p'.repeat(1025) }), 400, 'invalid_parameter', /1024/);
  });
});

describe('401: missing or bad credentials', () => {
  it.each([
    ['no credentials', undefined, 'credentials_required'],
    ['a wrong token', 'Basic ' + Buffer.from('someone:hush_wrong').toString('base64'), 'invalid_credentials'],
    ['garbage Basic credentials', 'Basic !!!', 'invalid_credentials'],
    ['an unknown scheme', 'Digest abc', 'invalid_credentials'],
    ['a garbage bearer token', 'Bearer not.a.jwt', 'invalid_token'],
  ])('share with %s', async (_name, header, code) => {
    const res = await expectError(
      () => {
        const req = h.http.post('/api/v1/share').type('form').send({ secret: 'x' });
        return header ? req.set('Authorization', header) : req;
      },
      401,
      code,
    );
    expect(res.headers['www-authenticate']).toBeDefined();
  });

  it("a valid token under another account's name", async () => {
    const bob = await h.account();
    await expectError(
      () =>
        h.http
          .post('/api/v1/share')
          .set('Authorization', 'Basic ' + Buffer.from(`${bob.custid}:${alice.token}`).toString('base64'))
          .send({ secret: 'x' }),
      401,
      'invalid_credentials',
    );
  });

  it.each([
    ['recent', () => h.http.get('/api/v1/private/recent')],
    ['generate', () => h.http.post('/api/v1/generate')],
  ])('%s needs credentials', async (_name, send) => {
    await expectError(send, 401, 'credentials_required');
  });

  it.each([
    ['metadata', () => h.http.post(`/api/v1/private/${'a'.repeat(31)}`)],
    ['burn', () => h.http.post(`/api/v1/private/${'a'.repeat(31)}/burn`)],
  ])('%s takes the metadata key alone, but credentials that are sent must be right', async (_name, send) => {
    await expectError(send, 404, 'unknown_secret');
    await expectError(() => send().set('Authorization', 'Basic ' + Buffer.from(`${alice.custid}:wrong`).toString('base64')), 401, 'invalid_credentials');
  });
});

describe('404: unknown, malformed, read, burned and expired keys look the same', () => {
  it.each([
    ['an unknown key', 'a'.repeat(31)],
    ['a malformed key', 'not-a-key'],
    ['an overlong key', 'a'.repeat(500)],
  ])('reading %s', async (_name, key) => {
    await expectError(() => h.http.post(`/api/v1/secret/${key}`), 404, 'unknown_secret', /^Unknown secret$/);
  });

  it('an unknown route', async () => {
    await expectError(() => h.http.get('/api/v1/nope'), 404, 'not_found');
  });

  it('an unknown metadata key', async () => {
    await expectError(() => h.http.post(`/api/v1/private/${'b'.repeat(31)}`).set('Authorization', alice.auth), 404, 'unknown_secret');
  });
});

describe('413: longer than the plan allows, never truncated', () => {
  it('basic (the default) allows 1,000 characters, counted as characters, not bytes', async () => {
    const ok = await share().send({ secret: '€'.repeat(1000) });
    expect(ok.status).toBe(200);
    expect((await h.http.post(`/api/v1/secret/${ok.body.secret_key}`)).body.value).toBe('€'.repeat(1000));
    await expectError(() => share().send({ secret: 'x'.repeat(1001) }), 413, 'secret_too_long', /1001 characters.*basic plan allows at most 1000/);
  });

  it('plans set raises the limit to 5,000 (standard) and 10,000 (pro)', async () => {
    const erin = await h.account();
    const send = (n: number) =>
      h.http
        .post('/api/v1/share')
        .set('Authorization', erin.auth)
        .send({ secret: 'y'.repeat(n) });
    expect((await send(1001)).status).toBe(413);
    await h.cli('plans', 'set', erin.custid, 'standard');
    expect((await send(5000)).status).toBe(200);
    await expectError(() => send(5001), 413, 'secret_too_long', /standard plan allows at most 5000/);
    await h.cli('plans', 'set', erin.custid, 'pro');
    const max = await send(10000);
    expect(max.status).toBe(200);
    expect((await h.http.post(`/api/v1/secret/${max.body.secret_key}`)).body.value).toHaveLength(10000);
    await expectError(() => send(10001), 413, 'secret_too_long', /10000/);
  });

  it('a body beyond 256 kB', async () => {
    await expectError(() => share().send({ secret: 'z'.repeat(300 * 1024) }), 413, 'payload_too_large');
  });
});

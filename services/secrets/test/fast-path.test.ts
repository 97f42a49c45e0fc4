import request from 'supertest';
import { listenOnFreePort } from '@hush/testing';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

// The API's routes are served without Express's router (src/http/fast-api.ts), which sets up the
// request and response as Express would and runs the route table's stacks itself. Every request
// below goes to two apps: one as deployed (`handler`, the fast path) and one with everything
// through Express (`express`). Status, headers, body (keys and times aside) and the request
// metrics must be the same.

describe.each(['spec', 'onetimesecret'])('API_DIALECT=%s', (dialect) => {
  let fast: { h: Harness; alice: Account };
  let slow: { h: Harness; alice: Account; http: ReturnType<typeof request>; close(): void };

  beforeAll(async () => {
    fast = await startSecretsWithAccount({ API_DIALECT: dialect });
    const other = await startSecretsWithAccount({ API_DIALECT: dialect });
    const { server, url } = await listenOnFreePort();
    server.on('request', other.h.secrets.express);
    slow = { ...other, http: request(url), close: () => (server.closeAllConnections(), server.close()) };
  });
  afterAll(async () => {
    slow?.close();
    await Promise.all([fast?.h.close(), slow?.h.close()]);
  });

  type Side = { http: ReturnType<typeof request>; auth: string; keys: Record<string, string> };
  type Send = (side: Side) => PromiseLike<request.Response>;

  const VOLATILE_HEADERS = new Set(['date', 'x-request-id', 'content-length', 'connection', 'keep-alive']);
  const normalise = (res: request.Response, side: Side) => {
    let text = res.text ?? '';
    for (const [name, key] of Object.entries(side.keys)) text = text.split(key).join(`<${name}>`);
    text = text.replace(/"[0-9a-z]{31}"/g, '"<key>"').replace(/"(metadata|secret)_shortkey":"[0-9a-z]+"/g, '"$1_shortkey":"<short>"');
    text = text.replace(/"(created|updated|expiration|secret_ttl|metadata_ttl|ttl|received|burned|delivery_updated)":\d+/g, '"$1":<n>').replace(/user-[0-9a-f]{8}/g, '<custid>');
    const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !VOLATILE_HEADERS.has(k)));
    return { status: res.status, headers, text, hasRequestId: typeof res.headers['x-request-id'] === 'string' };
  };

  async function both(send: Send) {
    const a: Side = { http: fast.h.http, auth: fast.alice.auth, keys: fastKeys };
    const b: Side = { http: slow.http, auth: slow.alice.auth, keys: slowKeys };
    const [ra, rb] = [await send(a), await send(b)];
    expect(normalise(ra, a)).toEqual(normalise(rb, b));
    return [ra, rb] as const;
  }

  const fastKeys: Record<string, string> = {};
  const slowKeys: Record<string, string> = {};
  async function share(name: string, fields: Record<string, string> = {}) {
    const [ra, rb] = await both((s) =>
      s.http
        .post('/api/v1/share')
        .set('Authorization', s.auth)
        .type('form')
        .send({ secret: 's3cret', ...fields }),
    );
    expect(ra.status).toBe(200);
    fastKeys[`${name}_secret`] = ra.body.secret_key;
    fastKeys[`${name}_metadata`] = ra.body.metadata_key;
    slowKeys[`${name}_secret`] = rb.body.secret_key;
    slowKeys[`${name}_metadata`] = rb.body.metadata_key;
  }

  describe('the fast path answers as Express does', () => {
    it('share in each encoding, and its errors', async () => {
      await share('one');
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).send({ secret: 'json', ttl: 600 }));
      await both((s) => s.http.post('/api/v1/create').set('Authorization', s.auth).field('secret', 'multipart'));
      await both((s) => s.http.post('/api/v1/share?secret=query&ttl=120').set('Authorization', s.auth));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).type('form').send('secret=x&recipient[]=a@example.org'));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).type('form').send({ secret: 'x', ttl: 'soon' }));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).set('Content-Type', 'application/json').send('{"secret": '));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).set('Content-Type', 'application/json').send('"text"'));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', s.auth).set('Content-Type', 'text/plain').send('secret=x'));
      await both((s) =>
        s.http
          .post('/api/v1/share')
          .set('Authorization', s.auth)
          .send({ secret: 'z'.repeat(300 * 1024) }),
      );
      await both((s) =>
        s.http
          .post('/api/v1/share')
          .set('Authorization', s.auth)
          .type('form')
          .send(Array.from({ length: 51 }, (_, i) => `k${i}=v`).join('&')),
      );
      await both((s) => s.http.post('/api/v1/share').type('form').send({ secret: 'x' }));
      await both((s) => s.http.post('/api/v1/share').set('Authorization', 'Basic !!!').type('form').send({ secret: 'x' }));
    });

    it('generate', async () => {
      const [ra] = await both((s) => s.http.post('/api/v1/generate').set('Authorization', s.auth).type('form').send({ length: '8' }).then(stripValue));
      expect(ra.status).toBe(200);
      await both((s) => s.http.post('/api/v1/generate').set('Authorization', s.auth).type('form').send({ length: '7' }));
    });

    it('metadata, burn and read, and their 404s', async () => {
      await share('two');
      await share('three');
      await both((s) => s.http.get(`/api/v1/private/${s.keys['two_metadata']}`).set('Authorization', s.auth));
      await both((s) => s.http.get(`/api/v1/receipt/${s.keys['two_metadata']}`));
      await both((s) => s.http.post(`/api/v1/metadata/${s.keys['two_metadata']}`));
      await both((s) => s.http.get(`/api/v1/private/${s.keys['two_metadata']}`).set('If-None-Match', '*'));
      await both((s) => s.http.post(`/api/v1/secret/${s.keys['two_secret']}`));
      await both((s) => s.http.post(`/api/v1/secret/${s.keys['two_secret']}`));
      await both((s) => s.http.post(`/api/v1/private/${s.keys['three_metadata']}/burn`).set('Authorization', s.auth));
      await both((s) => s.http.post(`/api/v1/private/${s.keys['three_metadata']}/burn`));
      await both((s) => s.http.post(`/api/v1/private/${s.keys['three_metadata']}/burn`).set('Authorization', 'Basic bm9ib2R5Ondyb25n'));
    });

    it('paths and methods it leaves to Express', async () => {
      for (const path of [
        '/api/v1/SHARE',
        '/api/v1/share/',
        '/api/v1/secret/%zz',
        '/api/v1/secret/a%20b',
        '/api/v1//share',
        '/api/v1/private/recent',
        '/api/v1/nope',
        '/api/v1/status',
      ]) {
        await both((s) => s.http.post(path).set('Authorization', s.auth));
        await both((s) => s.http.get(path).set('Authorization', s.auth));
      }
      await both((s) => s.http.head(`/api/v1/private/${'a'.repeat(31)}`));
      await both((s) => s.http.options('/api/v1/share'));
      await both((s) => s.http.put('/api/v1/share'));
    });

    it('counts the same requests under the same routes', async () => {
      const counts = async (managementUrl: string) =>
        (await request(managementUrl).get('/metrics')).text
          .split('\n')
          .filter((line) => line.startsWith('http_requests_total{'))
          .sort();
      expect(await counts(fast.h.managementUrl)).toEqual(await counts(slow.h.managementUrl));
    });
  });
});

function stripValue(res: request.Response) {
  res.text = res.text.replace(/"value":"[^"]*"/, '"value":"<value>"');
  return res;
}

import request from 'supertest';
import { listenOnFreePort } from '@hush/testing';
import { endpointsOf } from '../src/http/api-route.js';
import { API_MOUNT, API_ROUTES } from '../src/http/api.routes.js';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

// Every route of the table is served through both dispatch paths: the listener as deployed (the
// fast path takes every declared route: src/http/api-route.test.ts shows its matcher picks each
// one) and the same app with everything through Express. Both give the same answer, and it is the
// route's own (not the 404 of a path nobody serves). The OpenAPI side is src/http/openapi.test.ts.

describe.each(['spec', 'onetimesecret'])('API_DIALECT=%s', (dialect) => {
  let h: Harness;
  let alice: Account;
  let viaExpress: ReturnType<typeof request>;
  let close: () => void;

  beforeAll(async () => {
    ({ h, alice } = await startSecretsWithAccount({ API_DIALECT: dialect }));
    const { server, url } = await listenOnFreePort();
    server.on('request', h.secrets.express);
    viaExpress = request(url);
    close = () => (server.closeAllConnections(), server.close());
  });
  afterAll(async () => {
    close?.();
    await h?.close();
  });

  const endpoints = endpointsOf(API_ROUTES).map((e) => [e.method.toUpperCase(), e.path, e.method] as const);
  // Generated keys, values and times differ between the two calls; the rest is the same.
  const shape = (res: request.Response) => ({ status: res.status, text: res.text.replace(/"(value|[a-z_]*key)":"[^"]*"/g, '"$1":"~"').replace(/":\d{6,}/g, '":0') });
  const concrete = (path: string) => `${API_MOUNT}${path.replace(/:\w+/g, 'z'.repeat(31))}`;

  it.each(endpoints)('%s %s answers through both dispatch paths, from its own route', async (_m, path, method) => {
    for (const auth of [undefined, alice.auth]) {
      const send = (http: ReturnType<typeof request>) => (auth ? http[method](concrete(path)).set('Authorization', auth) : http[method](concrete(path)));
      const [fast, slow] = [await send(h.http), await send(viaExpress)];
      expect(fast.body.message).not.toBe('Not Found');
      expect(shape(fast)).toEqual(shape(slow));
    }
  });
});

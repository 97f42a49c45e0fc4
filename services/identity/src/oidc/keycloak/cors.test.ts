import { APP_FORM, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { clientBasedCORS, credentialedCors } from './cors.js';

const registered = new Set(['https://app.test']);
const webOrigins = { isWebOrigin: async (origin: string) => registered.has(origin) };
const withCors = () => bareProvider(() => [credentialedCors(webOrigins)], { clientBasedCORS });
const tokenRequest = { ...APP_FORM, grant_type: 'client_credentials' };

describe('credentialedCors', () => {
  it('when a preflight comes from an origin some client registers, then it is allowed with credentials', async () => {
    const { request } = await withCors();
    const res = await request.options(ROUTES.token).set('Origin', 'https://app.test').set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.test');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('when a preflight comes from any other origin, or from `null`, then it gets no CORS header', async () => {
    const { request } = await withCors();
    for (const origin of ['https://evil.test', 'null']) {
      const res = await request.options(ROUTES.token).set('Origin', origin).set('Access-Control-Request-Method', 'POST');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it("when the client's request comes from one of its web origins, then the answer allows that origin with credentials", async () => {
    const { request } = await withCors();
    const res = await request.post(ROUTES.token).set('Origin', 'https://app.test').type('form').send(tokenRequest);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.test');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('when it comes from an origin the client does not register, then oidc-provider refuses it and no CORS header is left', async () => {
    const { request } = await withCors();
    const res = await request.post(ROUTES.token).set('Origin', 'https://other.test').type('form').send(tokenRequest);
    expect(res.status).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

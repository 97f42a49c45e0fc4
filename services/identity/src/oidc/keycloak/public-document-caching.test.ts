import { bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { DISCOVERY_MAX_AGE, publicDocumentCaching } from './public-document-caching.js';

describe('publicDocumentCaching', () => {
  it('when the discovery document or the JWKS is served, then shared caches may keep it for its own time', async () => {
    const { request } = await bareProvider(() => [publicDocumentCaching(42)]);
    expect((await request.get('/.well-known/openid-configuration')).headers['cache-control']).toBe(`public, max-age=${DISCOVERY_MAX_AGE}`);
    expect((await request.get(ROUTES.jwks)).headers['cache-control']).toBe('public, max-age=42');
  });

  it("when anything else is served, then oidc-provider's Cache-Control stays", async () => {
    const { request } = await bareProvider(() => [publicDocumentCaching(42)]);
    const res = await request.post(ROUTES.token).type('form').send({ client_id: 'app', client_secret: 'app-secret', grant_type: 'client_credentials' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

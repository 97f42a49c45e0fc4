import type { ClientMetadata } from 'oidc-provider';
import { APP, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { resumeQuery } from './resume-query.js';

// A client with one redirect URI: oidc-provider's error handler then reads `redirect_uri` from the query.
const WEB: ClientMetadata = { ...APP, client_id: 'web', grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: ['https://web.test/cb'] };
const MALFORMED = `client_id=web&redirect_uri[]=1&response_type=code&scope=openid`;

describe('resumeQuery', () => {
  it('when a resume URL without its cookie carries a malformed authorization query, then the answer is a 4xx, not a 500', async () => {
    const { request } = await bareProvider(() => [resumeQuery], { clients: [WEB] });
    const res = await request.get(`${ROUTES.authorization}/someuid?${MALFORMED}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('when the middleware is absent, then the same request fails in oidc-provider (what it guards against)', async () => {
    const { request } = await bareProvider(() => [], { clients: [WEB] });
    expect((await request.get(`${ROUTES.authorization}/someuid?${MALFORMED}`)).status).toBe(500);
  });

  it('leaves an authorization request itself alone', async () => {
    const { request } = await bareProvider(() => [resumeQuery], { clients: [WEB] });
    const res = await request.get(`${ROUTES.authorization}?client_id=web&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fevil.test`);
    expect(res.status).toBe(400);
  });
});

import type { Configuration } from 'oidc-provider';
import { APP, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { clientCredentialsRefresh, serviceGrantId } from './client-credentials-refresh.js';

const API = 'https://api.test';
const configuration: Configuration = {
  clients: [
    { ...APP, grant_types: ['client_credentials', 'refresh_token'], client_credentials_refresh: true },
    { ...APP, client_id: 'plain', grant_types: ['client_credentials', 'refresh_token'] },
  ],
  extraClientMetadata: { properties: ['web_origins', 'client_credentials_refresh'] },
  features: {
    resourceIndicators: {
      enabled: true,
      defaultResource: () => API,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'read', audience: API, accessTokenFormat: 'opaque' }),
    },
  },
};

async function withRefresh() {
  const bare = await bareProvider((provider) => [clientCredentialsRefresh(provider)], configuration);
  const grant = (clientId: string) =>
    bare.request.post(ROUTES.token).type('form').send({ client_id: clientId, client_secret: 'app-secret', grant_type: 'client_credentials', scope: 'read' });
  return { ...bare, grant };
}

describe('clientCredentialsRefresh', () => {
  it('when a client with the setting gets a client-credentials token, then a refresh token of its service grant for the API comes with it', async () => {
    const { grant, provider, request } = await withRefresh();
    const first = await grant('app');
    expect(first.status).toBe(200);
    const stored = await provider.RefreshToken.find(String(first.body.refresh_token));
    expect(stored).toMatchObject({ accountId: 'app', clientId: 'app', grantId: serviceGrantId('app', API), scope: 'read', gty: 'client_credentials' });

    const refreshed = await request
      .post(ROUTES.token)
      .type('form')
      .send({ client_id: 'app', client_secret: 'app-secret', grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).toBeDefined();
  });

  it('when the client has no such setting, then no refresh token (RFC 6749 §4.4.3)', async () => {
    const { grant } = await withRefresh();
    const res = await grant('plain');
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
  });

  it("the service grant's id is the same on every request, and differs per client and API", () => {
    expect(serviceGrantId('app', API)).toBe(serviceGrantId('app', API));
    expect(serviceGrantId('app', API)).not.toBe(serviceGrantId('app', 'https://other.test'));
    expect(serviceGrantId('app', API)).not.toBe(serviceGrantId('other', API));
  });
});

import type { Configuration } from 'oidc-provider';
import { APP, bareProvider } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { clientCredentialsRefresh, serviceGrantId, serviceGrantPayloads } from './client-credentials-refresh.js';

const API = 'https://api.test';
const TTL = 3600;
const configuration: Configuration = {
  clients: [
    { ...APP, grant_types: ['client_credentials', 'refresh_token'], client_credentials_refresh: true },
    { ...APP, client_id: 'plain', grant_types: ['client_credentials', 'refresh_token'] },
  ],
  extraClientMetadata: { properties: ['web_origins', 'client_credentials_refresh'] },
  ttl: { Grant: TTL, RefreshToken: TTL },
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
  const bare = await bareProvider((provider) => [clientCredentialsRefresh(provider, TTL)], configuration);
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

  it("stores the payloads oidc-provider's own Grant and RefreshToken models save", async () => {
    const { provider } = await withRefresh();
    const client = await provider.Client.find('app');
    if (!client) throw new Error('no client');
    const grant = new provider.Grant({ accountId: 'app', clientId: 'app' });
    grant.addResourceScope(API, 'read');
    grant.jti = serviceGrantId('app', API);
    const refreshToken = new provider.RefreshToken({
      client,
      accountId: 'app',
      grantId: grant.jti,
      scope: 'read',
      resource: API,
      gty: 'client_credentials',
      expiresWithSession: false,
    });
    await grant.save();
    const modelGrant = await provider.Grant.adapter.find(grant.jti);
    const modelRefresh = await provider.RefreshToken.adapter.find(await refreshToken.save());

    const built = serviceGrantPayloads('app', API, 'read', TTL);
    // Apart from the id and the times, the same fields with the same values; the times as the models set them.
    const timeless = ({ jti, iat, exp, iiat, ...rest }: Record<string, unknown>) => {
      expect(typeof jti).toBe('string');
      expect(exp).toBe(Number(iat) + TTL);
      if (iiat !== undefined) expect(Number(iat) - Number(iiat)).toBeLessThanOrEqual(1);
      return { ...rest, iiat: iiat === undefined ? 'absent' : 'present' };
    };
    expect(timeless(built.grant)).toEqual(timeless({ ...modelGrant }));
    expect(timeless(built.refreshToken)).toEqual(timeless({ ...modelRefresh }));
    expect(built.grant.jti).toBe(grant.jti);
    expect(built.refreshToken.jti).toMatch(/^[\w-]{43}$/);
  });

  it("the service grant's id is the same on every request, and differs per client and API", () => {
    expect(serviceGrantId('app', API)).toBe(serviceGrantId('app', API));
    expect(serviceGrantId('app', API)).not.toBe(serviceGrantId('app', 'https://other.test'));
    expect(serviceGrantId('app', API)).not.toBe(serviceGrantId('other', API));
  });
});

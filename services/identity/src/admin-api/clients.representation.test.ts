import { DEVICE_CODE_GRANT } from '../clients/clients.js';
import type { Client } from '../clients/clients.repository.js';
import { toClientInput, toClientRepresentation } from './clients.representation.js';

const client: Client = {
  id: '00000000-0000-4000-8000-000000000001',
  clientId: 'app',
  name: 'App',
  enabled: true,
  description: null,
  secretSealed: null,
  secretHash: 'f'.repeat(64),
  grantTypes: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
  responseTypes: ['code'],
  redirectUris: ['https://app.example.com/cb'],
  postLogoutRedirectUris: ['https://app.example.com/bye', 'https://app.example.com/again'],
  webOrigins: ['+'],
  scopes: ['openid', 'profile'],
  organizationId: null,
  organizationName: null,
  clientCredentialsRefresh: false,
  signingAlg: 'ES256',
  pkceMethod: 'S256',
  consentRequired: false,
  createdAt: new Date(0),
  secretRotatedAt: null,
};

describe("Keycloak's client representation", () => {
  it('shows a Hush client with Keycloak’s flags and attributes, and never its secret', () => {
    const rep = toClientRepresentation(client);
    expect(rep).toMatchObject({
      publicClient: false,
      standardFlowEnabled: true,
      serviceAccountsEnabled: false,
      implicitFlowEnabled: false,
      directAccessGrantsEnabled: false,
      defaultClientScopes: ['openid', 'profile'],
      attributes: {
        'oauth2.device.authorization.grant.enabled': 'true',
        'pkce.code.challenge.method': 'S256',
        'post.logout.redirect.uris': 'https://app.example.com/bye##https://app.example.com/again',
        'access.token.signed.response.alg': 'ES256',
      },
    });
    expect(JSON.stringify(rep)).not.toContain('f'.repeat(64));
  });

  it('reports consentRequired as the client has it, and reads it back', () => {
    expect(toClientRepresentation(client).consentRequired).toBe(false);
    const asking = toClientRepresentation({ ...client, consentRequired: true });
    expect(asking.consentRequired).toBe(true);
    expect(toClientInput(asking).consentRequired).toBe(true);
    expect(toClientInput({ ...asking, consentRequired: false }).consentRequired).toBe(false);
  });

  it('reads back into the same client (PUT of an unchanged representation changes nothing)', () => {
    expect(toClientInput(toClientRepresentation(client))).toMatchObject({
      clientId: 'app',
      grantTypes: ['authorization_code', DEVICE_CODE_GRANT, 'refresh_token'],
      redirectUris: client.redirectUris,
      postLogoutRedirectUris: client.postLogoutRedirectUris,
      scopes: ['openid', 'profile'],
      pkceMethod: 'S256',
      signingAlg: 'ES256',
      public: false,
    });
  });

  it('maps service accounts and their refresh tokens, ignores Keycloak-only scopes, refuses the password grant', () => {
    expect(toClientInput({ clientId: 'svc', serviceAccountsEnabled: true, defaultClientScopes: ['roles', 'web-origins', 'api:read'] })).toMatchObject({
      grantTypes: ['client_credentials'],
      scopes: ['api:read'],
    });
    expect(toClientInput({ clientId: 'svc', serviceAccountsEnabled: true, attributes: { 'client_credentials.use_refresh_token': 'true' } }).grantTypes).toEqual([
      'client_credentials',
      'refresh_token',
    ]);
    expect(() => toClientInput({ clientId: 'pw', directAccessGrantsEnabled: true, serviceAccountsEnabled: true })).toThrow(/password grant/);
    expect(() => toClientInput({ clientId: 'none' })).toThrow(/needs a flow/);
  });
});

import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Client } from '../clients/clients.repository.js';
import { adapterPayload } from './client-payload.js';

const record = (over: Partial<Client> = {}): Client => ({
  id: '00000000-0000-4000-8000-000000000000',
  clientId: 'app',
  enabled: true,
  description: null,
  secretSealed: null,
  name: 'App',
  secretHash: 'f'.repeat(64),
  grantTypes: ['client_credentials'],
  responseTypes: [],
  redirectUris: [],
  postLogoutRedirectUris: [],
  webOrigins: ['+'],
  scopes: ['openid', 'email', 'read', 'write'],
  organizationId: null,
  organizationName: null,
  clientCredentialsRefresh: false,
  signingAlg: null,
  pkceMethod: null,
  consentRequired: false,
  createdAt: new Date(0),
  secretRotatedAt: null,
  ...over,
});

/** What adapterPayload reads of a request: its Authorization header. */
const request = (authorization: string) => ({ get: () => authorization }) as unknown as KoaContextWithOIDC;

describe('adapterPayload', () => {
  it('when the secret comes with HTTP Basic, then the client authenticates with client_secret_basic; otherwise with client_secret_post', () => {
    const client = record();
    expect(adapterPayload(client, request('Basic YTpi'), 'RS256').token_endpoint_auth_method).toBe('client_secret_basic');
    expect(adapterPayload(client, request(''), 'RS256').token_endpoint_auth_method).toBe('client_secret_post');
    expect(adapterPayload(client, undefined, 'RS256').token_endpoint_auth_method).toBe('client_secret_post');
  });

  it('when the client has no secret, then it is public', () => {
    const payload = adapterPayload(record({ secretHash: null }), request(''), 'RS256');
    expect(payload.token_endpoint_auth_method).toBe('none');
    expect(payload.client_secret).toBeUndefined();
  });

  it("when it has OpenID and API scopes, then oidc-provider's `scope` holds the OpenID ones and `api_scopes` the others", () => {
    const payload = adapterPayload(record(), request(''), 'RS256');
    expect(payload.scope).toBe('openid email');
    expect(payload['api_scopes']).toEqual(['read', 'write']);
  });

  it("when it names no signing algorithm, then its ID tokens use the realm's", () => {
    expect(adapterPayload(record(), request(''), 'ES256').id_token_signed_response_alg).toBe('ES256');
    expect(adapterPayload(record({ signingAlg: 'RS256' }), request(''), 'ES256').id_token_signed_response_alg).toBe('RS256');
  });

  it('each variant is built once per record, and frozen', () => {
    const client = record();
    const first = adapterPayload(client, request(''), 'RS256');
    expect(adapterPayload(client, request(''), 'RS256')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { KeyRing } from '@hush/common';
import { APP, bareProvider, bareSigningKey, ISSUER } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { envelopeKeys, looksLikeJwt, refreshTokenEnvelope } from '../token-envelope.js';
import { tokenRequestForms } from './token-request-forms.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** The client sends its secret with HTTP Basic, and may repeat it in the body (keycloak-connect does). */
const BASIC_APP = { ...APP, client_id: 'basic-app', token_endpoint_auth_method: 'client_secret_basic' as const, grant_types: ['client_credentials', 'refresh_token'] };

async function withForms() {
  const keys = await envelopeKeys(ISSUER, [await bareSigningKey()], KeyRing.of(randomBytes(32)));
  const bare = await bareProvider(() => [tokenRequestForms(() => keys)], { clients: [APP, BASIC_APP] });
  return { ...bare, keys };
}

describe('tokenRequestForms', () => {
  it('when Basic and the body carry the same credentials, then the request goes through as Basic alone', async () => {
    const { request } = await withForms();
    const res = await request
      .post(ROUTES.token)
      .set('Authorization', basic('basic-app', 'app-secret'))
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'basic-app', client_secret: 'app-secret' });
    expect(res.status).toBe(200);
  });

  it('when they differ, then 401 invalid_client, no-store', async () => {
    const { request } = await withForms();
    const res = await request
      .post(ROUTES.token)
      .set('Authorization', basic('basic-app', 'app-secret'))
      .type('form')
      .send({ grant_type: 'client_credentials', client_secret: 'other' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('when a field is repeated, then it is left as sent for oidc-provider, which refuses duplicates', async () => {
    const { request } = await withForms();
    const res = await request
      .post(ROUTES.token)
      .set('Authorization', basic('basic-app', 'app-secret'))
      .type('form')
      .send('grant_type=client_credentials&client_secret=a&client_secret=b');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when a refresh token is no valid envelope, then the client is still authenticated first and the grant is invalid', async () => {
    const { request, keys } = await withForms();
    const auth = basic('basic-app', 'app-secret');
    const bare = await request
      .post(ROUTES.token)
      .set('Authorization', auth)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: 'a'.repeat(43) });
    expect(bare.body.error).toBe('invalid_grant');
    const now = Math.floor(Date.now() / 1000);
    const envelope = await refreshTokenEnvelope(keys, { id: 'b'.repeat(43), clientId: 'basic-app', accountId: 'x', scope: undefined, sid: undefined, iat: now, exp: now + 60 });
    expect(looksLikeJwt(envelope)).toBe(true);
    const wrongSecret = await request
      .post(ROUTES.token)
      .set('Authorization', basic('basic-app', 'wrong'))
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: envelope });
    expect(wrongSecret.body.error).toBe('invalid_client');
  });

  it('when the body is larger than oidc-provider accepts, then 400 invalid_request', async () => {
    const { request } = await withForms();
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ grant_type: 'client_credentials', padding: 'x'.repeat(57 * 1024) });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toBe('failed to parse the request body');
  });
});

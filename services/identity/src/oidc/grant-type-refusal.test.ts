import { randomBytes } from 'node:crypto';
import { KeyRing } from '@hush/common';
import { APP_FORM, bareProvider, bareSigningKey, ISSUER } from '../../test/bare-provider.js';
import { keycloakTokenResponses } from './keycloak/token-responses.js';
import { ROUTES } from './routes.js';
import { envelopeKeys } from './token-envelope.js';

/** The token-response middleware, which asks for the rename on the answers it leaves alone. */
async function withRename() {
  const keys = await envelopeKeys(ISSUER, [await bareSigningKey()], KeyRing.of(randomBytes(32)));
  return bareProvider(() => [keycloakTokenResponses(() => keys, 'RS256')]);
}

describe('answerUnauthorizedClient', () => {
  it('when a client asks for a grant type it may not use, then 400 unauthorized_client', async () => {
    const { request } = await withRename();
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'refresh_token', refresh_token: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it("when the grant type is unknown, or the request is invalid otherwise, then oidc-provider's error stays", async () => {
    const { request } = await withRename();
    const unknown = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'password' });
    expect(unknown.body.error).toBe('unsupported_grant_type');
    const missing = await request.post(ROUTES.token).type('form').send(APP_FORM);
    expect(missing.body.error).toBe('invalid_request');
  });

  it('when the client fails to authenticate, then it learns nothing about its grant types', async () => {
    const { request } = await withRename();
    const res = await request.post(ROUTES.token).type('form').send({ client_id: 'app', client_secret: 'wrong', grant_type: 'refresh_token', refresh_token: 'x' });
    expect(res.body.error).toBe('invalid_client');
  });
});

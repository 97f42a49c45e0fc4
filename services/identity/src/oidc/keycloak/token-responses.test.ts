import { randomBytes } from 'node:crypto';
import { KeyRing } from '@hush/common';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { APP_FORM, bareProvider, bareSigningKey, ISSUER } from '../../../test/bare-provider.js';
import { ROUTES } from '../routes.js';
import { envelopeKeys, openAccessEnvelope } from '../token-envelope.js';
import { keycloakTokenResponses } from './token-responses.js';

async function withResponses() {
  const keys = await envelopeKeys(ISSUER, [await bareSigningKey()], KeyRing.of(randomBytes(32)));
  const bare = await bareProvider(() => [keycloakTokenResponses(() => keys, 'RS256')]);
  return { ...bare, keys };
}

describe('keycloakTokenResponses', () => {
  it("when a token response carries an opaque access token, then it is wrapped in a JWT envelope with Keycloak's claims", async () => {
    const { request, keys } = await withResponses();
    const res = await request
      .post(ROUTES.token)
      .type('form')
      .send({ ...APP_FORM, grant_type: 'client_credentials' });
    expect(res.status).toBe(200);
    expect(res.headers['pragma']).toBe('no-cache');
    const envelope = String(res.body.access_token);
    expect(decodeProtectedHeader(envelope).typ).toBe('JWT');
    expect(decodeJwt(envelope)).toMatchObject({ typ: 'Bearer', azp: 'app', realm_access: { roles: [] } });
    expect(await openAccessEnvelope(keys, envelope)).toMatch(/^[\w-]{43}$/);
  });

  it('when the token endpoint refuses, then the error is left as it is, with Pragma', async () => {
    const { request } = await withResponses();
    const res = await request.post(ROUTES.token).type('form').send({ client_id: 'app', client_secret: 'wrong', grant_type: 'client_credentials' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.headers['pragma']).toBe('no-cache');
  });
});

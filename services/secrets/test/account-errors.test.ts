import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { startSecrets, type Harness } from './harness.js';

/**
 * Account failures reached through the API answer as the caller's 4xx `{ message, code }`, never
 * as a 500. The issuer here is a JWKS served by this test, so it can sign a user token whose
 * username (another identity provider's, say) is not a usable account name.
 */
const ISSUER = 'https://id.example.test/auth/realms/public';
let privateKey: CryptoKey;
let jwks: ReturnType<typeof createServer>;
let h: Harness;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  jwks = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  jwks.listen(0, '127.0.0.1');
  await once(jwks, 'listening');
  h = await startSecrets({ IDENTITY_ISSUER: ISSUER, IDENTITY_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs` });
});
afterAll(async () => {
  await h.close();
  jwks.closeAllConnections();
  jwks.close();
});

const userToken = (username: string) =>
  new SignJWT({ iss: ISSUER, aud: h.config.API_AUDIENCE, client_id: 'app', sub: 'uuid-1', username, scope: 'secrets:read secrets:write' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
    .setExpirationTime('5m')
    .sign(privateKey);

describe('minting an API token for a username that cannot be an account name', () => {
  it('when the username has a colon (it could not be a Basic username), then 400 invalid_input, not a 500', async () => {
    const res = await h.http.post('/api/v1/account/api-token').set('Authorization', `Bearer ${await userToken('dept:alice')}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_input', message: expect.stringMatching(/custid/) });
    expect(await h.db('api_tokens').select('id')).toEqual([]);
    expect(await h.db('accounts').select('custid')).toEqual([]);
  });

  it('a valid username still mints a token (the same path works)', async () => {
    const res = await h.http.post('/api/v1/account/api-token').set('Authorization', `Bearer ${await userToken('alice')}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ custid: 'alice', api_token: expect.stringMatching(/^hush_/) });
  });
});

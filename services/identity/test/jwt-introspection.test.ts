import * as oidc from 'openid-client';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { postForm } from '@hush/testing';
import { authorize, clientConfig } from './flows.js';
import { basic, createApiAndClient, startIdentity, type ApiClient, type Harness } from './harness.js';

/**
 * RFC 7662 introspection and RFC 7009 revocation of JWT access tokens, which oidc-provider alone
 * refuses with `unsupported_token_type`: `active` with the claims, or `{active: false}`
 * when the token is expired, revoked, under a revoked grant, of a deleted client, or not ours.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
let introspectUrl: string;
let revokeUrl: string;
let tokenUrl: string;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'alice', '--password', PASSWORD);
  introspectUrl = `${h.issuer}/protocol/openid-connect/token/introspect`;
  revokeUrl = `${h.issuer}/protocol/openid-connect/revoke`;
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
});
afterAll(() => h.close());

const as = (c: Pick<ApiClient, 'clientId' | 'clientSecret'>) => ({ authorization: basic(c.clientId, c.clientSecret) });
const introspect = (c: Pick<ApiClient, 'clientId' | 'clientSecret'>, token: string) => postForm(introspectUrl, { token }, as(c));
const revoke = (c: Pick<ApiClient, 'clientId' | 'clientSecret'>, token: string, hint?: string) => postForm(revokeUrl, { token, ...(hint ? { token_type_hint: hint } : {}) }, as(c));

async function clientCredentialsToken(c: ApiClient): Promise<string> {
  const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read }, as(c));
  expect(res.status).toBe(200);
  return String(res.body['access_token']);
}

async function userTokens(c: ApiClient) {
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { callback, verifier, state } = await authorize(config, { redirectUri: REDIRECT, scope: `openid ${c.read}`, username: 'alice', password: PASSWORD });
  const exchange = () => oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return { tokens: await exchange(), exchange };
}

describe('introspection of a JWT access token', () => {
  it('is active with its claims, and inactive once the token is revoked (RFC 7009 answers 200)', async () => {
    const c = await createApiAndClient(h);
    const token = await clientCredentialsToken(c);

    const before = await introspect(c, token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ active: true, client_id: c.clientId, scope: c.read, aud: c.api, iss: h.issuer, jti: decodeJwt(token).jti, token_type: 'Bearer' });
    expect(before.body['exp']).toEqual(expect.any(Number));

    const revoked = await revoke(c, token, 'access_token');
    expect(revoked.status).toBe(200);
    expect((await introspect(c, token)).body).toEqual({ active: false });
    // Revoking it again, or revoking garbage, is still 200 (RFC 7009 §2.2).
    expect((await revoke(c, token)).status).toBe(200);
    expect((await revoke(c, 'not-a-token')).status).toBe(200);
  });

  it('a token signed with a key that is not ours is inactive; never unsupported_token_type', async () => {
    const c = await createApiAndClient(h);
    const { privateKey } = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: h.issuer, aud: c.api, client_id: c.clientId, jti: 'forged', scope: c.read };
    const forged = await new SignJWT({ ...claims, exp: now + 300 }).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' }).sign(privateKey);
    const res = await introspect(c, forged);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active: false });
  });

  it('another confidential client may introspect the token but not revoke it', async () => {
    const c = await createApiAndClient(h);
    const other = await createApiAndClient(h);
    const token = await clientCredentialsToken(c);
    expect((await introspect(other, token)).body).toMatchObject({ active: true, client_id: c.clientId });
    const refused = await revoke(other, token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request' });
    expect((await introspect(c, token)).body).toMatchObject({ active: true });
  });

  it('is inactive once its client is deleted', async () => {
    const c = await createApiAndClient(h);
    const auditor = await createApiAndClient(h);
    const token = await clientCredentialsToken(c);
    await h.cli('clients', 'delete', c.clientId);
    expect((await introspect(auditor, token)).body).toEqual({ active: false });
  });

  describe('user tokens carry their grant (grant_id) and die with it', () => {
    it('revoking the refresh token revokes the grant, and with it the access token', async () => {
      const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
      const { tokens } = await userTokens(c);
      const before = await introspect(c, tokens.access_token);
      expect(before.body).toMatchObject({ active: true, username: 'alice', grant_id: expect.any(String) });

      expect((await revoke(c, tokens.refresh_token as string, 'refresh_token')).status).toBe(200);
      expect((await introspect(c, tokens.access_token)).body).toEqual({ active: false });
    });

    it('a replayed authorization code revokes the grant: the access token first issued from it is inactive', async () => {
      const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
      const { tokens, exchange } = await userTokens(c);
      expect((await introspect(c, tokens.access_token)).body).toMatchObject({ active: true });
      await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
      expect((await introspect(c, tokens.access_token)).body).toEqual({ active: false });
    });
  });
});

import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { Browser } from '@hush/testing';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

// Implicit clients must register https redirect URIs; the test never follows the final redirect.
const REDIRECT = 'https://spa.example.com/callback';
const PASSWORD = 'a long enough password';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'carol', '--password', PASSWORD);
});
afterAll(() => h.close());

describe('implicit grant (id_token token) for clients without a backend', () => {
  it('returns an ID token and a JWT access token in the fragment', async () => {
    const c = await createApiAndClient(h, { grants: 'implicit', redirectUri: REDIRECT, extraArgs: ['--public'] });
    const config = await oidc.discovery(new URL(h.issuer), c.clientId, { id_token_signed_response_alg: 'RS256', response_types: ['id_token token'] }, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, response_type: 'id_token token', scope: `openid ${c.read}`, nonce, state });

    const browser = new Browser(new URL(h.issuer).origin);
    const login = await browser.navigate(url.toString());
    const consent = await browser.submit(login.html, 0, { username: 'carol', password: PASSWORD });
    const back = await browser.submit(consent.html, 0, {});
    const callback = new URL(back.leftTo as string);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);

    // openid-client's implicitAuthentication handles only response_type=id_token, so the ID token
    // is checked here as an RP must (OIDC Core 3.2.2.11): signature, iss, aud, nonce, at_hash.
    const fragment = new URLSearchParams(callback.hash.slice(1));
    expect(fragment.get('state')).toBe(state);
    expect(fragment.get('token_type')).toBe('Bearer');
    const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
    const { payload: claims } = await jwtVerify(fragment.get('id_token') as string, jwks, { issuer: h.issuer, audience: c.clientId });
    expect(claims.nonce).toBe(nonce);
    const digest = createHash('sha256')
      .update(fragment.get('access_token') as string)
      .digest();
    expect(claims['at_hash']).toBe(digest.subarray(0, 16).toString('base64url'));

    const { payload } = await jwtVerify(fragment.get('access_token') as string, jwks, { issuer: h.issuer, audience: c.api, typ: 'at+jwt' });
    expect(payload).toMatchObject({ username: 'carol', scope: `openid profile email ${c.read}`, sub: claims.sub, typ: 'Bearer', azp: c.clientId });
  });

  it('refuses response_type=token alone (no ID token, no nonce binding)', async () => {
    const c = await createApiAndClient(h, { grants: 'implicit', redirectUri: REDIRECT, extraArgs: ['--public'] });
    const url = new URL(`${h.issuer}/protocol/openid-connect/auth`);
    url.search = new URLSearchParams({ client_id: c.clientId, response_type: 'token', scope: `openid ${c.read}`, redirect_uri: REDIRECT, nonce: 'n' }).toString();
    const res = await request(url.origin).get(`${url.pathname}${url.search}`).redirects(0);
    const location = new URL(res.get('location') as string);
    expect(new URLSearchParams(location.hash.slice(1)).get('error') ?? location.searchParams.get('error')).toBe('unsupported_response_type');
  });
});

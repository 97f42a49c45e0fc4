import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import request from 'supertest';
import { Browser, postForm } from '@hush/testing';
import { authorize, clientConfig, signIn } from './flows.js';
import { basic, createApiAndClient, startIdentity, type Harness } from './harness.js';

// The token shapes Keycloak's adapters read: keycloak-connect (grant-manager.js validateToken: `typ`,
// `iss`, RS256 signature, ID token `aud`/`azp`; ensureFreshness: the refresh token's `exp`) and
// keycloak-js (decodes the refresh token; `sid`, `realm_access`, `resource_access` of the access token).

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
let userId: string;
let tokenUrl: string;
let jwks: ReturnType<typeof createRemoteJWKSet>;
beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
  userId = (await h.cli<{ id: string }>('users', 'create', 'dora', '--password', PASSWORD, '--email', 'dora@example.com')).id;
});
afterAll(() => h.close());

async function codeFlow(scope: (c: { read: string }) => string, extraArgs: string[] = [], extra: Record<string, string> = {}) {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT, extraArgs });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret, extraArgs.includes('ES256') ? 'ES256' : 'RS256');
  const flow = await authorize(config, { redirectUri: REDIRECT, scope: scope(c), username: 'dora', password: PASSWORD, extra });
  const tokens = await oidc.authorizationCodeGrant(config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return { c, config, tokens };
}

const userinfo = (token: string) => request(h.issuer).get('/protocol/openid-connect/userinfo').set('authorization', `Bearer ${token}`);

describe("Keycloak's token shapes", () => {
  it('an API access token says typ Bearer, names the client and session, carries (empty) roles and the username', async () => {
    const { c, tokens } = await codeFlow((c) => `openid profile ${c.read}`);
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, audience: c.api, typ: 'at+jwt' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      typ: 'Bearer',
      azp: c.clientId,
      sid: expect.any(String),
      realm_access: { roles: [] },
      resource_access: {},
      preferred_username: 'dora',
      scope: `openid profile email ${c.read}`,
    });
  });

  it("openid alone brings Keycloak's default scopes profile and email, unless the client is registered without them", async () => {
    const { c, tokens } = await codeFlow(() => 'openid');
    expect(tokens.scope).toBe('openid profile email');

    const narrow = await h.cli<{ client_id: string; client_secret: string }>(
      ...['clients', 'create', '--consent-required', '--name', 'narrow', '--grants', 'authorization_code', '--scopes', `openid,${c.read}`, '--redirect-uri', REDIRECT],
    );
    const config = await clientConfig(h.issuer, narrow.client_id, narrow.client_secret, 'RS256');
    const flow = await authorize(config, { redirectUri: REDIRECT, scope: `openid ${c.read}`, username: 'dora', password: PASSWORD });
    const narrowTokens = await oidc.authorizationCodeGrant(config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    expect(decodeJwt(narrowTokens.access_token).scope).toBe(`openid ${c.read}`);
  });

  it('an ID token says typ ID, with azp and the same sid', async () => {
    const { c, tokens } = await codeFlow((c) => `openid ${c.read}`);
    const { payload } = await jwtVerify(tokens.id_token as string, jwks, { issuer: h.issuer, audience: c.clientId, algorithms: ['RS256'] });
    expect(payload).toMatchObject({ typ: 'ID', azp: c.clientId, sub: userId });
    expect(payload['sid']).toBe(decodeJwt(tokens.access_token)['sid']);
  });

  it('a refresh token decodes as a JWT (typ Refresh, exp, iat, jti, sid) and still rotates, with reuse detection', async () => {
    const { config, tokens } = await codeFlow((c) => `openid ${c.read}`);
    const first = tokens.refresh_token as string;
    const claims = decodeJwt(first);
    expect(claims).toMatchObject({ typ: 'Refresh', iss: h.issuer, sub: userId, sid: decodeJwt(tokens.access_token)['sid'] });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3600);
    expect(claims.iat).toBeLessThanOrEqual(Date.now() / 1000 + 5);
    expect(typeof claims.jti).toBe('string');

    const second = await oidc.refreshTokenGrant(config, first);
    expect(decodeJwt(second.refresh_token as string).typ).toBe('Refresh');
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, second.refresh_token as string)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('an offline_access refresh token says typ Offline', async () => {
    const { tokens } = await codeFlow((c) => `openid offline_access ${c.read}`, [], { prompt: 'consent' });
    expect(decodeJwt(tokens.refresh_token as string).typ).toBe('Offline');
  });

  it('the stored id inside a refresh token (its jti) is refused on its own, and so is a forged envelope', async () => {
    const { c, tokens } = await codeFlow((c) => `openid ${c.read}`);
    const bare = decodeJwt(tokens.refresh_token as string).jti as string;
    const auth = { authorization: basic(c.clientId, c.clientSecret) };
    const plain = await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: bare }, auth);
    expect(plain.status).toBe(400);
    expect(plain.body['error']).toBe('invalid_grant');
    const [header, , signature] = (tokens.refresh_token as string).split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(tokens.refresh_token as string), exp: 9999999999 })).toString('base64url')}.${signature}`;
    expect((await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: forged }, auth)).body['error']).toBe('invalid_grant');
  });

  it('an OpenID-only access token is a JWT too (typ Bearer, verifiable with the JWKS), and works at userinfo', async () => {
    const { c, tokens } = await codeFlow(() => 'openid profile email');
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, typ: 'JWT' });
    expect(payload).toMatchObject({
      typ: 'Bearer',
      azp: c.clientId,
      sub: userId,
      preferred_username: 'dora',
      realm_access: { roles: [] },
      resource_access: {},
      scope: 'openid profile email',
    });
    const info = await userinfo(tokens.access_token);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ sub: userId, preferred_username: 'dora', email: 'dora@example.com' });
    // Its jti alone is no access token.
    expect((await userinfo(payload.jti as string)).status).toBe(401);
  });

  it('a client may choose ES256 for its tokens (Keycloak\'s "access token signature algorithm")', async () => {
    const { c, tokens } = await codeFlow((c) => `openid ${c.read}`, ['--signing-alg', 'ES256']);
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe('ES256');
    expect(decodeProtectedHeader(tokens.id_token as string).alg).toBe('ES256');
    await expect(jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, audience: c.api, algorithms: ['ES256'] })).resolves.toBeDefined();
  });

  it('the CLI refuses a signing algorithm other than RS256 or ES256', async () => {
    const res = await h.cliRaw(
      'clients',
      'create',
      '--consent-required',
      '--name',
      'x',
      '--grants',
      'client_credentials',
      '--scopes',
      'openid',
      '--signing-alg',
      'HS256',
      '--json',
    );
    expect(res.code).toBe(1);
  });
});

describe('userinfo takes any access token of the user that carries openid', () => {
  it('an API access token with openid: 200 with the claims of its OpenID scopes', async () => {
    const { tokens } = await codeFlow((c) => `openid email ${c.read}`);
    const info = await userinfo(tokens.access_token);
    expect(info.status).toBe(200);
    // profile came with openid, as Keycloak's default client scopes do; email brings
    // email_verified beside the address, false until proved, as Keycloak's email scope does
    expect(info.body).toEqual({ sub: userId, preferred_username: 'dora', email: 'dora@example.com', email_verified: false });
    expect(info.headers['cache-control']).toBe('no-store');
  });

  it('an API access token that was revoked, or whose grant was: 401 invalid_token', async () => {
    const revoked = await codeFlow((c) => `openid ${c.read}`);
    const revocation = `${h.issuer}/protocol/openid-connect/revoke`;
    const auth = { authorization: basic(revoked.c.clientId, revoked.c.clientSecret) };
    expect((await postForm(revocation, { token: revoked.tokens.access_token }, auth)).status).toBe(200);
    const info = await userinfo(revoked.tokens.access_token);
    expect(info.status).toBe(401);
    expect(info.headers['www-authenticate']).toMatch(/error="invalid_token"/);

    const byGrant = await codeFlow((c) => `openid ${c.read}`);
    const grantAuth = { authorization: basic(byGrant.c.clientId, byGrant.c.clientSecret) };
    expect((await userinfo(byGrant.tokens.access_token)).status).toBe(200);
    expect((await postForm(revocation, { token: String(byGrant.tokens.refresh_token), token_type_hint: 'refresh_token' }, grantAuth)).status).toBe(200);
    expect((await userinfo(byGrant.tokens.access_token)).status).toBe(401);
  });

  it('an API access token without openid: 403 insufficient_scope', async () => {
    const c = await createApiAndClient(h);
    const cc = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read }, { authorization: basic(c.clientId, c.clientSecret) });
    const info = await userinfo(String(cc.body['access_token']));
    expect(info.status).toBe(403);
    expect(info.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
  });

  it('a token that is not ours, or tampered with: 401 invalid_token', async () => {
    const { tokens } = await codeFlow((c) => `openid ${c.read}`);
    const [header, payload] = tokens.access_token.split('.');
    for (const bad of [`${header}.${payload}.AAAA`, 'not-a-token']) {
      const res = await userinfo(bad);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    }
  });
});

describe('PKCE as Keycloak: required of public clients, optional for confidential ones unless their setting requires it', () => {
  const authorizeWithoutPkce = async (clientId: string) => {
    const url = new URL(`${h.issuer}/protocol/openid-connect/auth`);
    url.search = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT, state: 'st' }).toString();
    return url;
  };

  it('a confidential client with default settings signs a user in without PKCE', async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
    const { browser, consent } = await signIn(await authorizeWithoutPkce(c.clientId), 'dora', PASSWORD);
    const back = new URL((await browser.submit(consent.html, 0, {})).leftTo as string);
    const code = back.searchParams.get('code') as string;
    const res = await postForm(tokenUrl, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(res.status).toBe(200);
    expect(decodeJwt(String(res.body['access_token'])).sub).toBe(userId);
  });

  it('a public client without PKCE is refused', async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT, extraArgs: ['--public'] });
    const res = await new Browser(new URL(h.issuer).origin).send((await authorizeWithoutPkce(c.clientId)).toString());
    const location = new URL(res.get('location') as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('the CLI takes only S256 as a PKCE method', async () => {
    const res = await h.cliRaw(
      'clients',
      'create',
      '--consent-required',
      '--name',
      'x',
      '--grants',
      'authorization_code',
      '--redirect-uri',
      REDIRECT,
      '--scopes',
      'openid',
      '--pkce-method',
      'plain',
      '--json',
    );
    expect(res.code).toBe(1);
  });
});

describe('one rule for redirect URIs, in the CLI and at /auth', () => {
  it('an implicit client may use http on localhost or 127.0.0.1 (development, as Keycloak), and /auth takes it', async () => {
    for (const redirect of ['http://localhost:3000/cb', 'http://127.0.0.1:3000/cb']) {
      const c = await createApiAndClient(h, { grants: 'implicit', redirectUri: redirect, extraArgs: ['--public'] });
      const url = new URL(`${h.issuer}/protocol/openid-connect/auth`);
      url.search = new URLSearchParams({ client_id: c.clientId, response_type: 'id_token token', scope: 'openid', redirect_uri: redirect, nonce: 'n', state: 's' }).toString();
      const res = await new Browser(url.origin).send(url.toString());
      // To the login page, not back to the client with an error, nor an error page.
      expect([res.status, res.get('location')]).toEqual([303, expect.stringContaining('/login-actions/')]);
    }
  });

  it('the CLI refuses http elsewhere for an implicit client, and non-web schemes for any', async () => {
    const implicit = await h.cliRaw(
      'clients',
      'create',
      '--consent-required',
      '--name',
      'x',
      '--grants',
      'implicit',
      '--public',
      '--redirect-uri',
      'http://spa.example.com/cb',
      '--scopes',
      'openid',
      '--json',
    );
    expect(implicit.code).toBe(1);
    expect(implicit.stderr).toMatch(/https/);
    const scheme = await h.cliRaw(
      'clients',
      'create',
      '--consent-required',
      '--name',
      'x',
      '--grants',
      'authorization_code',
      '--redirect-uri',
      'javascript:alert(1)',
      '--scopes',
      'openid',
      '--json',
    );
    expect(scheme.code).toBe(1);
  });
});

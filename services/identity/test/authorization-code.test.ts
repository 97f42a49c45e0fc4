import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import request from 'supertest';
import { Browser, parseForms, postForm } from '@hush/testing';
import { authorizationUrl, authorize as authorizeAs, clientConfig, signIn } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
let userId: string;
beforeAll(async () => {
  h = await startIdentity({ LOGIN_MAX_FAILURES: '3' });
  await h.cli('orgs', 'create', 'support');
  userId = (await h.cli<{ id: string }>('users', 'create', 'alice', '--password', PASSWORD, '--email', 'alice@example.com', '--org', 'support')).id;
});
afterAll(() => h.close());

async function setup() {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  return { c, config };
}

/** Login and consent through the real pages; returns the redirect to the client. */
async function authorize(config: oidc.Configuration, scope: string, extra: Record<string, string> = {}) {
  const flow = await authorizeAs(config, { redirectUri: REDIRECT, scope, username: 'alice', password: PASSWORD, extra });
  expect(flow.login.html).toContain('<label for="username">');
  expect(flow.consent.html).toContain('Allow');
  return flow;
}

describe('authorization code + PKCE through the login and consent pages', () => {
  it('issues an ID token, a JWT access token for the API carrying the username, and a refresh token', async () => {
    const { c, config } = await setup();
    const { callback, verifier, state } = await authorize(config, `openid profile ${c.read}`);
    expect(callback.searchParams.get('iss')).toBe(h.issuer); // RFC 9207

    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).toBe(userId);
    expect(tokens.refresh_token).toBeDefined();

    const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, audience: c.api, typ: 'at+jwt' });
    expect(payload).toMatchObject({
      sub: userId,
      client_id: c.clientId,
      username: 'alice',
      preferred_username: 'alice',
      // email: a default scope (Keycloak's default client scopes), added to an OpenID request
      scope: `openid profile email ${c.read}`,
      organization: 'support',
    });
  });

  it('serves userinfo for an OpenID-only access token', async () => {
    const { config } = await setup();
    const { callback, verifier, state } = await authorize(config, 'openid profile email');
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, preferred_username: 'alice', email: 'alice@example.com' });
  });

  it('rotates refresh tokens, and reuse of a rotated one revokes the whole grant', async () => {
    const { c, config } = await setup();
    const { callback, verifier, state } = await authorize(config, `openid ${c.read}`);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const first = tokens.refresh_token as string;

    const second = await oidc.refreshTokenGrant(config, first);
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first);

    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The replay revoked the grant: the token the legitimate holder has now is dead too.
    await expect(oidc.refreshTokenGrant(config, second.refresh_token as string)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('an authorization code works once; a replay fails and revokes what it issued', async () => {
    const { c, config } = await setup();
    const { callback, verifier, state } = await authorize(config, `openid ${c.read}`);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it("requires PKCE of a client whose setting says so (Keycloak's pkce.code.challenge.method): a request without code_challenge is refused", async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT, extraArgs: ['--pkce-method', 'S256'] });
    const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'abc' });
    const res = await new Browser(new URL(h.issuer).origin).send(url.toString());
    const location = new URL(res.get('location') as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses the wrong code_verifier', async () => {
    const { c, config } = await setup();
    const { callback, state } = await authorize(config, `openid ${c.read}`);
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: state })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses an unregistered redirect_uri without redirecting to it', async () => {
    const { c } = await setup();
    const url = new URL(`${h.issuer}/protocol/openid-connect/auth`);
    url.search = new URLSearchParams({
      client_id: c.clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://evil.example/cb',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const res = await request(url.origin).get(`${url.pathname}${url.search}`).redirects(0).set('accept', 'text/html');
    expect(res.status).toBe(400);
    expect(res.get('location')).toBeUndefined();
  });

  it('the user can deny consent: the client gets access_denied', async () => {
    const { c, config } = await setup();
    const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
    const { browser, consent } = await signIn(url, 'alice', PASSWORD);
    const denied = await browser.submit(consent.html, 1, {});
    expect(new URL(denied.leftTo as string).searchParams.get('error')).toBe('access_denied');
  });
});

describe('the login page', () => {
  async function loginPage() {
    const { c, config } = await setup();
    const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
    const browser = new Browser(url.origin);
    return { browser, page: await browser.navigate(url.toString()) };
  }

  it('is served with a strict CSP, no framing, no caching, and labelled fields', async () => {
    const { page } = await loginPage();
    expect(page.res.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(page.res.get('cache-control')).toBe('no-store');
    expect(page.html).toMatch(/<label for="password">/);
    // The only scripts are the passkey button's, under the response's nonce; the password form needs none.
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.res.get('content-security-policy') ?? '')?.[1];
    const scripts = [...page.html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
  });

  it('a wrong password re-renders the page with an error and no session', async () => {
    const { browser, page } = await loginPage();
    const again = await browser.submit(page.html, 0, { username: 'alice', password: 'wrong password' });
    expect(again.res.status).toBe(401);
    expect(again.html).toContain('Invalid username or password.');
    expect(again.html).toContain('value="alice"');
  });

  it('a POST without the CSRF token is refused', async () => {
    const { browser, page } = await loginPage();
    const form = parseForms(page.html)[0] as { action: string };
    const res = await browser.send(form.action, { username: 'alice', password: 'x' });
    expect(res.status).toBe(400);
  });

  it('a POST from a browser without the interaction cookie is refused', async () => {
    const { page } = await loginPage();
    const form = parseForms(page.html)[0] as { action: string; hidden: Record<string, string> };
    const res = await postForm(new URL(form.action, h.url).toString(), { ...form.hidden, username: 'alice', password: PASSWORD });
    expect(res.status).toBe(400);
  });

  it('locks out a username from an IP after repeated failures (429, Retry-After), even with the right password', async () => {
    await h.cli('users', 'create', 'bob', '--password', PASSWORD);
    const { browser, page } = await loginPage();
    let html = page.html;
    for (let i = 0; i < 3; i++) {
      const r = await browser.submit(html, 0, { username: 'bob', password: `wrong-${i}` });
      html = r.html;
    }
    const blocked = await browser.submit(html, 0, { username: 'bob', password: PASSWORD });
    expect(blocked.res.status).toBe(429);
    expect(Number(blocked.res.get('retry-after'))).toBeGreaterThan(0);
  });
});

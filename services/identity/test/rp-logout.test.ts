import * as oidc from 'openid-client';
import { Browser, parseForms } from '@hush/testing';
import { authorize, clientConfig } from './flows.js';
import { refreshGrant, startIdentity, type Harness } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/signed-out';
const PASSWORD = 'correct horse battery staple';
const LOGOUT = '/protocol/openid-connect/logout';

let h: Harness;
let app: { clientId: string; clientSecret: string; config: oidc.Configuration };
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'lou', '--password', PASSWORD);
  await h.cli('users', 'create', 'max', '--password', PASSWORD);
  const c = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--consent-required',
    '--name',
    'Logout app',
    '--id',
    'logout-app',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'openid,profile',
    '--redirect-uri',
    REDIRECT,
    '--post-logout-redirect-uri',
    AFTER_LOGOUT,
  );
  app = { clientId: c.client_id, clientSecret: c.client_secret, config: await clientConfig(h.issuer, c.client_id, c.client_secret) };
});
afterAll(() => h.close());

/** `username` signed in to the app in a browser: its tokens and that browser. */
async function signedIn(username = 'lou') {
  const flow = await authorize(app.config, { redirectUri: REDIRECT, scope: 'openid profile', username, password: PASSWORD });
  const tokens = await oidc.authorizationCodeGrant(app.config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return { browser: flow.browser, tokens };
}

/** Whether the browser still has a session at identity: an authorization request then asks no password. */
async function stillSignedIn(browser: Browser) {
  const url = oidc.buildAuthorizationUrl(app.config, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
  const page = await browser.navigate(url.href);
  return !page.html.includes('name="password"');
}

const logoutUrl = (params: Record<string, string>) => `${h.issuer}${LOGOUT}?${new URLSearchParams(params).toString()}`;

describe('RP-initiated logout', () => {
  it('with a valid id_token_hint and a registered post_logout_redirect_uri: signed out at once, redirected with the state, no page', async () => {
    const { browser, tokens } = await signedIn();
    const out = await browser.navigate(logoutUrl({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: AFTER_LOGOUT, state: 'st' }));
    expect(out.leftTo).toBe(`${AFTER_LOGOUT}?state=st`);
    expect(await stillSignedIn(browser)).toBe(false);
    // Its grant went with the session: the refresh token is refused.
    expect((await refreshGrant(`${h.issuer}/protocol/openid-connect/token`, app, tokens.refresh_token as string)).status).toBe(400);
  });

  it('without a hint: the confirmation page stays, and nothing ends until it is confirmed', async () => {
    const { browser } = await signedIn();
    const ask = await browser.navigate(logoutUrl({ client_id: app.clientId, post_logout_redirect_uri: AFTER_LOGOUT }));
    expect(ask.res.status).toBe(200);
    expect(ask.html).toContain('Sign out?');
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it("with a hint of another person than the browser's: the confirmation page", async () => {
    const { browser } = await signedIn('lou');
    const { tokens: others } = await signedIn('max');
    const ask = await browser.navigate(logoutUrl({ id_token_hint: others.id_token as string, post_logout_redirect_uri: AFTER_LOGOUT }));
    expect(ask.res.status).toBe(200);
    expect(ask.html).toContain('Sign out?');
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('with a forged hint: refused, still signed in', async () => {
    const { browser, tokens } = await signedIn();
    const [header, payload] = (tokens.id_token as string).split('.');
    const res = await browser.send(logoutUrl({ id_token_hint: `${header}.${payload}.AAAA`, post_logout_redirect_uri: AFTER_LOGOUT }));
    expect(res.status).toBe(400);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('with a post_logout_redirect_uri the client did not register: refused, still signed in', async () => {
    const { browser, tokens } = await signedIn();
    const res = await browser.send(logoutUrl({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: 'https://evil.example/' }));
    expect(res.status).toBe(400);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('a confirmation GET with a made-up secret signs no one out', async () => {
    const { browser } = await signedIn();
    const res = await browser.send(`${h.issuer}${LOGOUT}/confirm?xsrf=guess`);
    expect(res.status).toBe(400);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it("the account console's sign-out ends the identity session and comes back to a page saying so, whose link asks to sign in", async () => {
    const browser = new Browser(h.url);
    const login = await browser.navigate('/auth/realms/public/account/');
    const page = await browser.submit(login.html, 0, { username: 'lou', password: PASSWORD });
    const signOut = parseForms(page.html).find((f) => f.action.endsWith('/sign-out'))!;
    const after = await browser.navigate(signOut.action, signOut.hidden);
    expect(after.url).toBe(`${h.url}/auth/realms/public/account/?state=signed-out`);
    expect(after.html).toContain('<h1>You are signed out</h1>');
    expect(after.html).not.toContain('name="password"');
    const again = await browser.navigate(/href="([^"]+)">Sign in again/.exec(after.html)![1]!);
    expect(again.html).toContain('Sign in to your Hush account');
  });
});

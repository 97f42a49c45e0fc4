import * as oidc from 'openid-client';
import request from 'supertest';
import { Browser, parseForms } from '@hush/testing';
import { authorizationUrl } from './flows.js';
import { startIdentity, type Harness } from './harness.js';

/**
 * What Keycloak's browser adapter (keycloak-js) needs besides tokens: credentialed CORS for each
 * client's web origins, and the session iframe protocol (its pages, `session_state`, the cookie
 * the iframe reads). The adapter itself runs in test/e2e/test/keycloak-js.browser.test.ts.
 */
const APP = 'http://127.0.0.1:9';
const REDIRECT = `${APP}/callback`;
const OTHER = 'https://other-app.example.com';
const PASSWORD = 'correct horse battery staple';
const P = '/auth/realms/public/protocol/openid-connect';

let h: Harness;
let derived: string; // web origins: + (so APP)
let listed: string; // web origins: OTHER only
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'ivy', '--password', PASSWORD);
  const client = (id: string, ...extra: string[]) =>
    h.cli<{ client_id: string; web_origins: string[] }>(
      'clients',
      'create',
      '--consent-required',
      '--id',
      id,
      '--name',
      id,
      '--public',
      '--grants',
      'authorization_code,refresh_token',
      '--scopes',
      'openid,profile',
      '--redirect-uri',
      REDIRECT,
      '--post-logout-redirect-uri',
      REDIRECT,
      ...extra,
    );
  const a = await client('spa-derived');
  expect(a.web_origins).toEqual(['+']);
  derived = a.client_id;
  const b = await client('spa-listed', '--web-origin', `${OTHER}/`);
  expect(b.web_origins).toEqual([OTHER]);
  listed = b.client_id;
});
afterAll(() => h.close());

const publicConfig = (clientId: string) =>
  oidc.discovery(new URL(h.issuer), clientId, { token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' }, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });

/** Signs in as ivy (and consents) in `browser`; returns the callback URL and the code verifier. */
async function signIn(clientId: string, browser = new Browser(h.url)) {
  const config = await publicConfig(clientId);
  const { url, verifier } = await authorizationUrl(config, REDIRECT, 'openid profile');
  let page = await browser.navigate(url.toString());
  if (page.html.includes('name="password"')) page = await browser.submit(page.html, 0, { username: 'ivy', password: PASSWORD });
  if (!page.leftTo) page = await browser.submit(page.html, 0, {});
  return { callback: new URL(page.leftTo as string), verifier, browser, config };
}

const codeExchange = (clientId: string, origin: string | undefined, code = 'not-a-code') =>
  request(h.url)
    .post(`${P}/token`)
    .type('form')
    .set(origin ? { Origin: origin } : {})
    .send({ grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT, code_verifier: 'x'.repeat(43) });

const noCors = (res: request.Response) => {
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
};

describe('credentialed CORS for a client’s web origins', () => {
  it('answers a registered origin with its origin and credentials allowed (`+`: the redirect URIs’ origin)', async () => {
    const res = await codeExchange(derived, APP);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['vary']).toMatch(/origin/i);
  });

  it('answers an origin listed explicitly, and only the listed ones (no `+` then)', async () => {
    const listedOk = await codeExchange(listed, OTHER);
    expect(listedOk.headers['access-control-allow-origin']).toBe(OTHER);
    expect(listedOk.headers['access-control-allow-credentials']).toBe('true');

    const redirectOrigin = await codeExchange(listed, APP);
    expect(redirectOrigin.status).toBe(400);
    expect(redirectOrigin.body.error).toBe('invalid_request');
    noCors(redirectOrigin);
  });

  it('gives an unregistered origin no CORS header and refuses its request', async () => {
    for (const origin of ['https://evil.example.com', 'null', `${APP}0`]) {
      const res = await codeExchange(derived, origin);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      noCors(res);
    }
    // An unknown client: nothing to allow anything for.
    noCors(await codeExchange('nobody-at-all', APP));
  });

  it('answers a preflight for an origin some client registers, and nothing for others', async () => {
    for (const path of ['token', 'userinfo', 'logout', 'token/introspect', 'revoke']) {
      const ok = await request(h.url)
        .options(`${P}/${path}`)
        .set({ Origin: OTHER, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' });
      expect({ path, status: ok.status }).toEqual({ path, status: 204 });
      expect(ok.headers['access-control-allow-origin']).toBe(OTHER);
      expect(ok.headers['access-control-allow-credentials']).toBe('true');
      expect(ok.headers['access-control-allow-methods']).toContain('POST');
      expect(ok.headers['access-control-allow-headers']).toMatch(/authorization/i);

      const refused = await request(h.url).options(`${P}/${path}`).set({ Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'POST' });
      expect(refused.status).toBe(204);
      noCors(refused);
    }
  });

  it('covers the code exchange, refresh, userinfo, revocation and introspection of a signed-in browser client', async () => {
    const { callback, verifier } = await signIn(derived);
    const code = callback.searchParams.get('code') as string;
    const token = await request(h.url)
      .post(`${P}/token`)
      .type('form')
      .set({ Origin: APP })
      .send({ grant_type: 'authorization_code', code, client_id: derived, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.headers['access-control-allow-origin']).toBe(APP);
    expect(token.headers['access-control-allow-credentials']).toBe('true');

    const refreshed = await request(h.url)
      .post(`${P}/token`)
      .type('form')
      .set({ Origin: APP })
      .send({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: derived });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers['access-control-allow-credentials']).toBe('true');

    const userinfo = await request(h.url)
      .get(`${P}/userinfo`)
      .set({ Origin: APP, Authorization: `Bearer ${refreshed.body.access_token}` });
    expect(userinfo.status).toBe(200);
    expect(userinfo.headers['access-control-allow-origin']).toBe(APP);
    expect(userinfo.headers['access-control-allow-credentials']).toBe('true');
    noCors(
      await request(h.url)
        .get(`${P}/userinfo`)
        .set({ Origin: 'https://evil.example.com', Authorization: `Bearer ${refreshed.body.access_token}` }),
    );

    for (const path of ['token/introspect', 'revoke']) {
      const res = await request(h.url).post(`${P}/${path}`).type('form').set({ Origin: APP }).send({ token: refreshed.body.refresh_token, client_id: derived });
      expect({ path, acao: res.headers['access-control-allow-origin'], acac: res.headers['access-control-allow-credentials'] }).toEqual({ path, acao: APP, acac: 'true' });
    }
  });
});

it('refuses a web origin that is not an origin (a path, another scheme, Keycloak’s *)', async () => {
  for (const bad of ['https://app.example.com/path', 'ftp://app.example.com', '*', 'app.example.com']) {
    const res = await h.cliRaw(
      'clients',
      'create',
      '--consent-required',
      '--name',
      'bad',
      '--public',
      '--grants',
      'authorization_code',
      '--scopes',
      'openid',
      '--redirect-uri',
      REDIRECT,
      '--web-origin',
      bad,
    );
    expect({ bad, failed: res.code !== 0 }).toEqual({ bad, failed: true });
    expect(res.stderr).toContain('web origin');
  }
});

describe('Keycloak’s session iframe protocol', () => {
  it('is announced in discovery, with the device authorization endpoint', async () => {
    const res = await request(h.url).get('/auth/realms/public/.well-known/openid-configuration');
    expect(res.body.check_session_iframe).toBe(`${h.issuer}/protocol/openid-connect/login-status-iframe.html`);
    expect(res.body.device_authorization_endpoint).toBe(`${h.issuer}/protocol/openid-connect/auth/device`);
    expect(res.body.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');
  });

  it.each([
    ['login-status-iframe.html', /addEventListener\('message'/],
    ['3p-cookies/step1.html', /location\.replace\('step2\.html'\)/],
    ['3p-cookies/step2.html', /postMessage\(supported \? 'supported' : 'unsupported', '\*'\)/],
  ])('serves %s on the layout, its script under the nonce, framable by the registered web origins only', async (path, script) => {
    const res = await request(h.url).get(`${P}/${path}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = res.headers['content-security-policy'] as string;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.text).toContain(`<script nonce="${nonce}">`);
    expect(res.text).toMatch(script);
    expect(res.text).toContain('<main>');
    const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1]?.split(' ');
    expect(new Set(ancestors)).toEqual(new Set([APP, OTHER]));
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(csp).toContain(path.startsWith('login') ? "connect-src 'self'" : "connect-src 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('checks a client and origin at init: 204 for its web origin, 403 for another, 404 for an unknown client', async () => {
    const init = (q: Record<string, string>) => request(h.url).get(`${P}/login-status-iframe.html/init`).query(q);
    expect((await init({ client_id: derived, origin: APP })).status).toBe(204);
    expect((await init({ client_id: listed, origin: OTHER })).status).toBe(204);
    expect((await init({ client_id: listed, origin: APP })).status).toBe(403);
    expect((await init({ client_id: derived, origin: 'https://evil.example.com' })).status).toBe(403);
    expect((await init({ client_id: 'nobody-at-all', origin: APP })).status).toBe(404);
    expect((await init({ client_id: derived })).status).toBe(400);
  });

  it('returns session_state (the sid of its tokens), the same for every client of one browser session, in a cookie the iframe can read; sign-out clears it', async () => {
    const first = await signIn(derived);
    const state = first.callback.searchParams.get('session_state');
    expect(state).toBeTruthy();
    expect(first.browser.cookie('hush_session_state')).toBe(state);
    // A second client in the same browser: no login prompt, the same sid.
    const second = await signIn(listed, first.browser);
    expect(second.callback.searchParams.get('session_state')).toBe(state);

    // Another browser signing in gets another session.
    expect((await signIn(derived)).callback.searchParams.get('session_state')).not.toBe(state);

    const logout = await first.browser.navigate(`${P}/logout?client_id=${derived}&post_logout_redirect_uri=${encodeURIComponent(REDIRECT)}`);
    const form = parseForms(logout.html)[0];
    expect(form).toBeDefined();
    const res = await first.browser.send(form?.action as string, { ...form?.hidden, logout: 'yes' });
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/hush_session_state=; Path=\/auth\/realms\/public\/; Max-Age=0; SameSite=None; Secure/);
    expect(first.browser.cookie('hush_session_state')).toBeUndefined();
  });

  it('sets the cookie SameSite=None; Secure for a loopback or https origin (a third-party frame must read it)', async () => {
    const { browser } = await signIn(derived);
    const { url } = await authorizationUrl(await publicConfig(derived), REDIRECT, 'openid');
    const res = await browser.send(url.toString());
    expect(res.status).toBe(303);
    const line = ((res.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('hush_session_state='));
    expect(line).toMatch(/^hush_session_state=[\w-]+; Path=\/auth\/realms\/public\/; Max-Age=1209600; SameSite=None; Secure$/);
  });
});

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as oidc from 'openid-client';
import request from 'supertest';
import { KeyRing } from '@hush/common';
import { Browser, parseForms } from '@hush/testing';
import { ADMIN_CONSOLE } from '../src/console-sign-in/index.js';
import { consoleSessionSchema, sealedCookie } from '../src/console-sign-in/console-session.js';
import { KEY_LABELS } from '../src/key-labels.js';
import { endAccountSessions } from '../src/sessions/index.js';
import { startIdentity, type Harness } from './harness.js';

const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'dora', '--password', PASSWORD, '--email', 'dora@example.test');
});
afterAll(() => h.close());

/** Opens `path` of the console in a fresh browser and signs in on identity's login page. */
async function signedIn(path = `${ACCOUNT}/`) {
  const browser = new Browser(h.url);
  const login = await browser.navigate(path);
  expect(login.html).toContain('Sign in to your Hush account');
  const back = await browser.submit(login.html, 0, { username: 'dora', password: PASSWORD });
  return { browser, login, back };
}

const sessionCookie = 'hush_console_account_console';

describe('console sign-in', () => {
  it('a console page without a session sends the person through the authorization code flow with PKCE', async () => {
    const browser = new Browser(h.url);
    const res = await browser.send(`${ACCOUNT}/`);
    expect(res.status).toBe(303);
    const to = new URL(res.headers['location'] as string);
    expect(`${to.origin}${to.pathname}`).toBe(`${h.issuer}/protocol/openid-connect/auth`);
    expect(to.searchParams.get('client_id')).toBe('account-console');
    expect(to.searchParams.get('redirect_uri')).toBe(`${h.url}${ACCOUNT}/callback`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('state')).toBeTruthy();
  });

  it('signs in without a consent page and lands on the page first asked for', async () => {
    const { back, browser } = await signedIn(`${ACCOUNT}/?from=test`);
    expect(back.res.status).toBe(200);
    expect(back.url).toBe(`${h.url}${ACCOUNT}/?from=test`);
    expect(back.html).toContain('dora@example.test');
    expect(back.html).toContain('<nav aria-label="Account">');
    // Signed in: the next visit is answered at once.
    expect((await browser.send(`${ACCOUNT}/`)).status).toBe(200);
  });

  it('keeps the session in a sealed HttpOnly SameSite cookie: no token or name in clear, a changed byte is no session', async () => {
    const { browser } = await signedIn();
    const res = await browser.send(`${ACCOUNT}/`);
    expect(res.status).toBe(200);
    const sealed = browser.cookie(sessionCookie) as string;
    expect(sealed).toBeDefined();
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toMatch(/dora|eyJ/);
    // Three tokens, deflated then sealed: far from the 4096 bytes browsers keep of a cookie.
    expect(sealed.length).toBeLessThan(3000);
    const tampered = new Browser(h.url);
    const flipped = sealed.slice(0, 40) + (sealed[40] === 'A' ? 'B' : 'A') + sealed.slice(41);
    const again = await tampered.send(`${ACCOUNT}/`, undefined, { cookie: `${sessionCookie}=${flipped}` });
    expect(again.status).toBe(303);
    expect(again.headers['location']).toContain('/protocol/openid-connect/auth');
  });

  it('sets the cookie HttpOnly, SameSite=Lax, on the console path only', async () => {
    const browser = new Browser(h.url);
    const login = await browser.navigate(`${ACCOUNT}/`);
    const form = parseForms(login.html)[0] as { action: string; hidden: Record<string, string> };
    // Follow by hand until the callback answers.
    let res = await browser.send(form.action, { ...form.hidden, username: 'dora', password: PASSWORD });
    let setCookie: string[] = [];
    for (let i = 0; i < 6 && res.status >= 300 && res.status < 400; i++) {
      const next = new URL(res.headers['location'] as string, h.url);
      res = await browser.send(next.href);
      if (next.pathname === `${ACCOUNT}/callback`) setCookie = (res.headers['set-cookie'] as unknown as string[]) ?? [];
    }
    const session = setCookie.find((c) => c.startsWith(`${sessionCookie}=`)) as string;
    expect(session).toMatch(/; Path=\/auth\/realms\/public\/account;/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
  });

  it('never returns to a path outside the console', async () => {
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/auth/admin/public/console/', `${ACCOUNT}/../../admin`, `${ACCOUNT}\\@evil.example`]) {
      const browser = new Browser(h.url);
      const login = await browser.navigate(`${ACCOUNT}/sign-in?return=${encodeURIComponent(evil)}`);
      const back = await browser.submit(login.html, 0, { username: 'dora', password: PASSWORD });
      expect(back.url).toBe(`${h.url}${ACCOUNT}/`);
    }
  });

  it('refuses a callback whose state was not issued to this browser', async () => {
    const { browser } = await signedIn();
    const res = await browser.send(`${ACCOUNT}/callback?code=x&state=forged`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('role="alert"');
  });

  it('signs out through RP-initiated logout with the ID token as hint, and the cookie is gone', async () => {
    const { browser, back } = await signedIn();
    const forms = parseForms(back.html);
    const signOut = forms.find((f) => f.action === `${ACCOUNT}/sign-out`) as { action: string; hidden: Record<string, string> };
    expect(signOut.hidden['csrf']).toBeTruthy();
    const res = await browser.send(signOut.action, signOut.hidden);
    expect(res.status).toBe(303);
    const to = new URL(res.headers['location'] as string);
    expect(`${to.origin}${to.pathname}`).toBe(`${h.issuer}/protocol/openid-connect/logout`);
    expect(to.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${h.url}${ACCOUNT}/`);
    expect(browser.cookie(sessionCookie)).toBeUndefined();
  });

  it('refuses a sign-out without the session CSRF token', async () => {
    const { browser } = await signedIn();
    const res = await browser.send(`${ACCOUNT}/sign-out`, { csrf: 'forged' });
    expect(res.status).toBe(400);
    expect(browser.cookie(sessionCookie)).toBeDefined();
  });
});

describe('the console session past its access token', () => {
  /** The browser's console session cookie, opened and rewritten with `change` (as the server would seal it). */
  const rewrite = (browser: Browser, change: (session: Record<string, unknown>) => Record<string, unknown>) => {
    const keys = KeyRing.of(h.config.MASTER_KEY).derive(KEY_LABELS.consoleSessions);
    const session = JSON.parse(inflateRawSync(keys.open(Buffer.from(browser.cookie(sessionCookie) as string, 'base64url'), sessionCookie)).toString('utf8')) as Record<
      string,
      unknown
    >;
    const sealed = keys.seal(deflateRawSync(JSON.stringify(change(session))), sessionCookie).toString('base64url');
    return { session, cookie: `${sessionCookie}=${sealed}` };
  };

  it('refreshes an access token about to expire, with the refresh token, and goes on', async () => {
    const { browser } = await signedIn();
    const { session, cookie } = rewrite(browser, (s) => ({ ...s, expiresAt: Math.floor(Date.now() / 1000) }));
    const res = await new Browser(h.url).send(`${ACCOUNT}/`, undefined, { cookie });
    expect(res.status).toBe(200);
    const renewed = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith(`${sessionCookie}=`)) as string;
    const value = renewed.slice(sessionCookie.length + 1, renewed.indexOf(';'));
    const keys = KeyRing.of(h.config.MASTER_KEY).derive(KEY_LABELS.consoleSessions);
    const after = JSON.parse(inflateRawSync(keys.open(Buffer.from(value, 'base64url'), sessionCookie)).toString('utf8')) as Record<string, unknown>;
    expect(after['accessToken']).not.toBe(session['accessToken']);
    expect(after['refreshToken']).not.toBe(session['refreshToken']);
    expect(after['expiresAt']).toBeGreaterThan(Date.now() / 1000 + 60);
  });

  it('ends when the refresh is refused (the person signed out everywhere meanwhile): back to sign-in', async () => {
    const { browser } = await signedIn();
    const user = await h.identity.context.users.findByUsername('dora');
    await endAccountSessions(h.identity.context, user!.id);
    const { cookie } = rewrite(browser, (s) => ({ ...s, expiresAt: Math.floor(Date.now() / 1000) }));
    const res = await new Browser(h.url).send(`${ACCOUNT}/sessions`, undefined, { cookie });
    expect(res.status).toBe(303);
    expect(res.headers['location']).toContain('/protocol/openid-connect/auth');
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`${sessionCookie}=; Path=${ACCOUNT}; Max-Age=0`));
  });
});

describe('the admin console client (what h6 signs in with)', () => {
  it('gets, without a consent page, an access token for the admin API carrying the person’s realm-management roles, and keeps it by refresh', async () => {
    await h.cli('users', 'create', 'ada', '--password', PASSWORD);
    await h.cli('roles', 'grant', 'realm-admin', '--user', 'ada');
    const config = await oidc.discovery(new URL(h.issuer), ADMIN_CONSOLE.clientId, { id_token_signed_response_alg: 'RS256' }, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const redirectUri = `${h.url}${ADMIN_CONSOLE.mount}/callback`;
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: ADMIN_CONSOLE.scope,
      resource: ADMIN_CONSOLE.resource as string,
      state: 's',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = new Browser(h.url);
    const login = await browser.navigate(url.href);
    const back = await browser.submit(login.html, 0, { username: 'ada', password: PASSWORD });
    // The admin console's callback is h6's route; here the redirect to it is what counts.
    expect(back.url.startsWith(`${redirectUri}?`)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), { pkceCodeVerifier: verifier, expectedState: 's' });
    const users = await request(h.url).get('/auth/admin/realms/public/users').set('authorization', `Bearer ${tokens.access_token}`);
    expect(users.status).toBe(200);
    // Its console session, sealed as the module seals it, stays well within the 4096 bytes browsers keep of a cookie.
    const cookies: string[] = [];
    const name = 'hush_console_security_admin_console';
    sealedCookie(name, ADMIN_CONSOLE.mount, randomBytes(32), consoleSessionSchema).write(
      { headers: {} } as IncomingMessage,
      { appendHeader: (_header: string, line: string) => cookies.push(line) } as unknown as ServerResponse,
      {
        id: 'x'.repeat(22),
        userId: tokens.claims()!.sub,
        username: 'ada',
        accessToken: tokens.access_token,
        expiresAt: 0,
        refreshToken: tokens.refresh_token,
        idToken: tokens.id_token as string,
        sid: 'x'.repeat(43),
      },
      60,
    );
    const line = cookies[0] as string;
    expect(line.indexOf(';')).toBeLessThan(3500);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string, { resource: ADMIN_CONSOLE.resource as string });
    expect((await request(h.url).get('/auth/admin/realms/public/users').set('authorization', `Bearer ${refreshed.access_token}`)).status).toBe(200);
  });
});

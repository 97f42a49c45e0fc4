import { Browser, parseForms } from '@hush/testing';
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
  expect(login.html).toContain('Sign in to Account Console');
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

import request, { type Response } from 'supertest';
import { Browser, parseForms } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'carol', '--password', PASSWORD);
});
afterAll(() => h.close());

/** A fresh client and its login page, opened by a browser that keeps the interaction cookie. */
async function loginPage() {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
  const browser = new Browser(url.origin);
  return { c, clientName: `client ${c.clientId.slice('client-'.length)}`, browser, page: await browser.navigate(url.toString()) };
}

/** The page's stylesheet carries the nonce its CSP allows (else the browser ignores it). */
function expectStyled(res: Response, html: string) {
  const nonce = /style-src 'nonce-([^']+)'/.exec(res.get('content-security-policy') ?? '')?.[1];
  expect(nonce).toBeDefined();
  expect(html).toContain(`<style nonce="${nonce}">`);
}

describe('the login page', () => {
  it('names the client, also after a failed sign-in', async () => {
    const { browser, page, clientName } = await loginPage();
    expect(page.html).toContain(`Sign in to ${clientName}`);
    const again = await browser.submit(page.html, 0, { username: 'carol', password: 'wrong password' });
    expect(again.res.status).toBe(401);
    expect(again.html).toContain(`Sign in to ${clientName}`);
  });

  it('is styled under its CSP', async () => {
    const { page } = await loginPage();
    expectStyled(page.res, page.html);
  });
});

describe('error pages', () => {
  it('an expired or unknown interaction is a 4xx page whose styles load', async () => {
    const res = await request(h.issuer).get('/login-actions/unknown-interaction');
    const html = res.text;
    expect(res.status).toBe(400);
    expect(html).toContain('role="alert"');
    expectStyled(res, html);
  });

  it('a form without its CSRF token is refused with a page whose styles load', async () => {
    const { browser, page } = await loginPage();
    const form = parseForms(page.html)[0] as { action: string };
    const res = await browser.send(form.action, { username: 'carol', password: 'x' });
    const html = res.text;
    expect(res.status).toBe(400);
    expectStyled(res, html);
  });

  it('a sign-in that the browser says comes from another site is refused, even with the token', async () => {
    const { browser, page } = await loginPage();
    const form = parseForms(page.html)[0] as { action: string; hidden: Record<string, string> };
    const res = await browser.send(form.action, { ...form.hidden, username: 'carol', password: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expectStyled(res, res.text);
  });

  it('an OAuth error shown by the provider is styled under a CSP', async () => {
    const res = await request(h.issuer).get('/protocol/openid-connect/auth?client_id=nobody&response_type=code&scope=openid');
    const html = res.text;
    expect(res.status).toBe(400);
    expect(html).toContain('role="alert"');
    expectStyled(res, html);
  });
});

describe('the sign-out pages', () => {
  it('ask for confirmation, then say the user is signed out, styled under their CSP', async () => {
    const { browser, page } = await loginPage();
    await browser.submit(page.html, 0, { username: 'carol', password: PASSWORD }); // a session
    const ask = await browser.navigate(`${h.issuer}/protocol/openid-connect/logout`);
    expect(ask.res.status).toBe(200);
    expect(ask.html).toContain('Sign out?');
    expectStyled(ask.res, ask.html);
    const done = await browser.submit(ask.html, 0, { logout: 'yes' });
    expect(done.html).toContain('You are signed out');
    expectStyled(done.res, done.html);
  });
});

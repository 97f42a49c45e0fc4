import request from 'supertest';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Browser, postForm, startSmtp, type TestSmtp } from '@hush/testing';
import { authorize, clientConfig } from '../flows.js';
import { bootstrapAdmin, startIdentity, type Harness } from '../harness.js';
import { askForReset, consoleMovesTo as moveInConsole, inlineMail, linkMailedTo, REDIRECT } from '../account-mail.js';

/**
 * Promise: a verified address is the address the link was sent to. Attacked as an account holder
 * with a browser and curl would: a link (password reset, an administrator's execute-actions
 * e-mail, a registration's confirmation) is mailed to the account's address A; the account then
 * moves to someone else's address B (account console, account REST API, admin API) and the link
 * is used. It must not mark B verified, nor work at all: moving cancels the open links, for good
 * (moving back to A does not revive them). Tokens and userinfo say what the account holds now.
 */
const ACCOUNT = '/auth/realms/public/account';
const PASSWORD = 'correct horse battery staple';
const NEW = 'a brand new passphrase';

let h: Harness;
let smtp: TestSmtp;
let admin: string;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startIdentity({ ...inlineMail(smtp), REGISTRATION: 'true' });
  admin = await bootstrapAdmin(h);
}, 60_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

let n = 0;
/** An account of its own per test with a verified address, a victim's address, and an IP of its own (reset limits count per IP). */
async function attacker(verified = true) {
  n++;
  const username = `mallory${n}`;
  const email = `mallory${n}@evil.test`;
  const { id } = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD, '--email', email, ...(verified ? ['--email-verified'] : []));
  return { id, username, email, victim: `victim${n}@example.com`, ip: `203.0.113.${n}` };
}

const user = async (id: string) => (await h.identity.context.users.findById(id))!;

/** The link's page opened in a browser (GET uses nothing): the form the attacker submits later. */
async function openLink(link: string) {
  const browser = new Browser(new URL(link).origin);
  const page = await browser.navigate(link);
  expect(page.res.status).toBe(200);
  return { browser, page };
}

/** The "Forgot password?" link mailed to the account's address, opened. */
async function resetLink(who: { username: string; email: string; ip: string }) {
  expect((await askForReset(h, who.username, who.ip)).status).toBe(200);
  const { link } = await linkMailedTo(smtp, who.email);
  return { link, ...(await openLink(link)) };
}

/** Changes the e-mail address in the account console. */
const consoleMovesTo = (username: string, email: string) => moveInConsole(h, username, PASSWORD, email);

const adminPut = (id: string, body: object) => request(h.url).put(`/auth/admin/realms/public/users/${id}`).set('authorization', `Bearer ${admin}`).send(body);

/** An application with an API of its own, allowed the e-mail scope: the person's tokens through the authorization code flow. */
async function signedIn(username: string, scope: (api: string) => string, password = PASSWORD) {
  const api = `https://api-${++n}.example.com`;
  await h.cli('apis', 'create', api, '--scopes', `read-${n}`, '--ttl', '300');
  const app = await h.cli<{ client_id: string; client_secret: string }>(
    ...['clients', 'create', '--name', `app ${n}`, '--grants', 'authorization_code,refresh_token', '--scopes', `openid,profile,email,read-${n}`, '--redirect-uri', REDIRECT],
  );
  const config = await clientConfig(h.issuer, app.client_id, app.client_secret);
  const flow = await authorize(config, { redirectUri: REDIRECT, scope: scope(`read-${n}`), username, password });
  const tokens = await oidc.authorizationCodeGrant(config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return { api, app, config, tokens };
}

/** The person's API access token (JWT, verified) and ID token. */
async function tokensOf(username: string) {
  const { api, app, config, tokens } = await signedIn(username, (read) => `openid ${read}`);
  const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
  const access = (await jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, audience: api })).payload;
  return { access, id: decodeJwt(tokens.id_token as string), tokens, config, app };
}

/** A token the account REST API and userinfo take (scope openid, no API). */
const accountToken = async (username: string) => (await signedIn(username, () => 'openid')).tokens.access_token;

const unusable = (res: { status: number; text?: string; html?: string }) => {
  expect(res.status).toBe(400);
  expect(res.text ?? res.html).toContain('This link no longer works');
};

describe('a reset link used after the account moved to someone else’s address', () => {
  it('through the account console: the link is refused, the new address stays unverified, tokens say so', async () => {
    const m = await attacker();
    const { browser, page, link } = await resetLink(m);
    await consoleMovesTo(m.username, m.victim);

    const used = await browser.submit(page.html, 0, { password: NEW, confirm: NEW });
    unusable(used.res);
    unusable(await new Browser(h.url).send(link));
    expect(await user(m.id)).toMatchObject({ email: m.victim, emailVerified: false });

    // The password did not change, and what the account's tokens claim is the truth.
    const { access, id } = await tokensOf(m.username);
    expect(access).toMatchObject({ email: m.victim, email_verified: false });
    expect(id).toMatchObject({ email: m.victim, email_verified: false });
  });

  it('through the account REST API: the same', async () => {
    const m = await attacker();
    const { browser, page } = await resetLink(m);
    const token = await accountToken(m.username);
    const moved = await request(h.url).post(ACCOUNT).set('authorization', `Bearer ${token}`).set('content-type', 'application/json').send({ email: m.victim });
    expect(moved.status).toBe(204);

    unusable((await browser.submit(page.html, 0, { password: NEW, confirm: NEW })).res);
    expect(await user(m.id)).toMatchObject({ email: m.victim, emailVerified: false });
    const userinfo = await request(h.issuer).get('/protocol/openid-connect/userinfo').set('authorization', `Bearer ${token}`);
    expect(userinfo.body).toMatchObject({ email: m.victim, email_verified: false });
  });

  it('through the admin API without emailVerified: unverified, the link cancelled', async () => {
    const m = await attacker();
    const { browser, page } = await resetLink(m);
    expect((await adminPut(m.id, { email: m.victim })).status).toBe(204);
    unusable((await browser.submit(page.html, 0, { password: NEW, confirm: NEW })).res);
    expect(await user(m.id)).toMatchObject({ email: m.victim, emailVerified: false });
  });

  it('through the admin API with emailVerified true: the administrator vouches for the new address, the link is still cancelled', async () => {
    const m = await attacker();
    const { browser, page } = await resetLink(m);
    expect((await adminPut(m.id, { email: m.victim, emailVerified: true })).status).toBe(204);
    expect(await user(m.id)).toMatchObject({ email: m.victim, emailVerified: true });
    unusable((await browser.submit(page.html, 0, { password: NEW, confirm: NEW })).res);
  });
});

describe('links of every kind are bound to the address they were sent to', () => {
  const executeActions = (id: string, actions: string[]) =>
    request(h.url).put(`/auth/admin/realms/public/users/${id}/execute-actions-email`).set('authorization', `Bearer ${admin}`).send(actions);

  it('execute-actions VERIFY_EMAIL: moved to B and back to A, the link stays cancelled and A unverified', async () => {
    const m = await attacker(false);
    expect((await executeActions(m.id, ['VERIFY_EMAIL'])).status).toBe(204);
    const { link } = await linkMailedTo(smtp, m.email);
    const { browser, page } = await openLink(link);
    await consoleMovesTo(m.username, m.victim);
    await consoleMovesTo(m.username, m.email);

    unusable((await browser.submit(page.html, 0, {})).res);
    expect(await user(m.id)).toMatchObject({ email: m.email, emailVerified: false });
  });

  it('a registration’s confirmation: the address changed by an administrator, the link confirms nothing', async () => {
    n++;
    const email = `newcomer${n}@evil.test`;
    const browser = new Browser(h.url);
    const form = await browser.navigate(`${h.issuer}/login-actions/registration`);
    const created = await browser.submit(form.html, 0, { username: `newcomer${n}`, email, password: PASSWORD, confirm: PASSWORD });
    expect(created.res.status).toBe(201);
    const { link } = await linkMailedTo(smtp, email);
    const opened = await openLink(link);
    const id = (await h.identity.context.users.findByUsername(`newcomer${n}`))!.id;
    expect((await adminPut(id, { email: `victim-of-newcomer${n}@example.com` })).status).toBe(204);

    unusable((await opened.browser.submit(opened.page.html, 0, {})).res);
    expect(await user(id)).toMatchObject({ emailVerified: false });
  });

  it('an address changed only in case is the same address: the link still works and verifies it', async () => {
    const m = await attacker(false);
    const { browser, page } = await resetLink(m);
    await consoleMovesTo(m.username, m.email.toUpperCase());

    const done = await browser.submit(page.html, 0, { password: NEW, confirm: NEW });
    expect(done.res.status).toBe(200);
    expect(await user(m.id)).toMatchObject({ email: m.email.toUpperCase(), emailVerified: true });
  });

  it('racing the link against the move, whichever wins, the new address is never verified', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => attacker(false)));
    const links = await Promise.all(
      people.map(async (m) => {
        expect((await executeActions(m.id, ['VERIFY_EMAIL'])).status).toBe(204);
        return openLink((await linkMailedTo(smtp, m.email)).link);
      }),
    );
    await Promise.all(people.flatMap((m, i) => [links[i]!.browser.submit(links[i]!.page.html, 0, {}), adminPut(m.id, { email: m.victim })]));
    for (const m of people) expect(await user(m.id)).toMatchObject({ email: m.victim, emailVerified: false });
  });
});

describe('tokens and userinfo say what the account holds now', () => {
  it('after a move, a refreshed access token, a new ID token and userinfo carry the new address, unverified; introspection no longer vouches for the old one', async () => {
    const m = await attacker();
    const before = await tokensOf(m.username);
    expect(before.access).toMatchObject({ email: m.email, email_verified: true });
    expect(before.id).toMatchObject({ email: m.email, email_verified: true });
    const introspect = async () =>
      (
        await postForm(`${h.issuer}/protocol/openid-connect/token/introspect`, {
          token: before.tokens.access_token,
          client_id: before.app.client_id,
          client_secret: before.app.client_secret,
        })
      ).body;
    expect(await introspect()).toMatchObject({ active: true, email: m.email, email_verified: true });
    const apiUserinfo = async () => (await request(h.issuer).get('/protocol/openid-connect/userinfo').set('authorization', `Bearer ${before.tokens.access_token}`)).body;
    expect(await apiUserinfo()).toMatchObject({ email: m.email, email_verified: true });
    expect((await adminPut(m.id, { email: m.victim })).status).toBe(204);

    expect(await introspect()).toMatchObject({ active: true, email: m.email, email_verified: false });
    expect(await apiUserinfo()).toMatchObject({ email: m.victim, email_verified: false });

    const refreshed = await oidc.refreshTokenGrant(before.config, before.tokens.refresh_token as string);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ email: m.victim, email_verified: false });
    expect(decodeJwt(refreshed.id_token as string)).toMatchObject({ email: m.victim, email_verified: false });
    const userinfo = await request(h.issuer)
      .get('/protocol/openid-connect/userinfo')
      .set('authorization', `Bearer ${await accountToken(m.username)}`);
    expect(userinfo.body).toMatchObject({ email: m.victim, email_verified: false });
  });
});

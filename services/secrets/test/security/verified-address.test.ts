import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Browser, eventually, parseForms, postForm, startSmtp, type TestSmtp } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../../identity/test/harness.js';
import { askForReset, consoleMovesTo as moveInConsole, linkMailedTo } from '../../../identity/test/account-mail.js';
import { hashKey } from '../../src/secrets/keys.js';
import { bearer, type Account, type Harness } from '../harness.js';
import { startWebWithIdentity, userToken } from '../identity.js';

/**
 * Promise: a recipient-only secret is read only by whoever proves the recipient's address now.
 * Attacked across both services (identity and secrets in-process, real PostgreSQL, Redis, SMTP):
 * - an account with its own verified address gets a reset link, moves to the recipient's
 *   address, uses the link and reads the secret (the attack that broke it);
 * - a token (or a web session) issued while the account held the address, used after it moved;
 * - a recipient's one-time code, used on another secret, or asked for another address.
 */
const PASSWORD = 'correct horse battery staple';
const NEW = 'a brand new passphrase';
const SECRET = 'payroll-db: 4u#Qz-Ω';

let smtp: TestSmtp;
let identity: IdentityHarness;
let h: Harness;
let alice: Account;
let admin: string;
beforeAll(async () => {
  smtp = await startSmtp();
  const channel = `revocations-address-${randomBytes(4).toString('hex')}`;
  const adminSecret = randomBytes(24).toString('hex');
  ({ identity, h } = await startWebWithIdentity(
    { REVOCATIONS_CHANNEL: channel, DELIVERY_MODE: 'inline', SMTP_URL: smtp.url, RELAY_INTERVAL_MS: '100' },
    { REVOCATIONS_CHANNEL: channel, DELIVERY_MODE: 'inline', SMTP_URL: smtp.url, RELAY_INTERVAL_MS: '100', TRUST_PROXY: 'loopback', ADMIN_CLIENT_SECRET: adminSecret },
  ));
  alice = await h.account();
  const res = await postForm(`${identity.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: adminSecret });
  admin = String(res.body['access_token']);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await identity?.close();
  await smtp?.close();
});

let n = 0;
async function person(prefix: string) {
  n++;
  const username = `${prefix}${n}`;
  const email = `${prefix}${n}@example.com`;
  const { id } = await identity.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD, '--email', email, '--email-verified');
  return { id, username, email };
}

/** Alice shares a recipient-only secret for `recipient` (optionally with a passphrase): its key. */
async function shareFor(recipient: string, passphrase?: string): Promise<string> {
  const res = await h.http
    .post('/api/v1/share')
    .set('Authorization', alice.auth)
    .send({ secret: SECRET, recipient, recipient_only: true, ...(passphrase ? { passphrase } : {}) });
  expect(res.status).toBe(200);
  return (res.body as { secret_key: string }).secret_key;
}

const reveal = (key: string, token?: string, body: object = {}) => {
  const req = h.http.post(`/api/v1/secret/${key}`).send(body);
  return token ? req.set('Authorization', bearer(token)) : req;
};
const stillThere = async (key: string) => expect(await h.db('secrets').where('secret_hash', hashKey(key)).count({ n: '*' })).toEqual([{ n: 1 }]);
const adminPut = (id: string, body: object) => request(identity.url).put(`/auth/admin/realms/public/users/${id}`).set('authorization', `Bearer ${admin}`).send(body);

/** Signs `username` in to the secrets web app (through identity's pages); the browser, on `path`. */
async function webSignIn(username: string, path: string, password = PASSWORD) {
  const browser = new Browser(h.url);
  const start = await browser.navigate(`/auth/sign-in?return=${encodeURIComponent(path)}`);
  const idp = new Browser(identity.url);
  const login = await idp.navigate(start.leftTo as string);
  let page = await idp.submit(login.html, 0, { username, password });
  if (!page.leftTo) page = await idp.submit(page.html, 0, {});
  const done = await browser.send(page.leftTo as string);
  await browser.navigate(done.headers['location'] as string);
  return browser;
}

/** Changes the account's address in identity's account console. */
const consoleMovesTo = (username: string, email: string) => moveInConsole(identity, username, PASSWORD, email);

it('the attack: an account with its own verified address takes a reset link, moves to the recipient’s address, uses the link: it reads nothing', async () => {
  const victim = `victim-${randomBytes(3).toString('hex')}@example.com`;
  const key = await shareFor(victim);
  const mallory = await person('mallory');

  expect((await askForReset(identity, mallory.username, '203.0.113.7')).status).toBe(200);
  const { link } = await linkMailedTo(smtp, mallory.email);
  const linkBrowser = new Browser(new URL(link).origin);
  const linkPage = await linkBrowser.navigate(link);
  await consoleMovesTo(mallory.username, victim);
  const used = await linkBrowser.submit(linkPage.html, 0, { password: NEW, confirm: NEW });
  // Whatever the link did, the attacker goes on with the password that now works.
  const password = used.res.status === 200 ? NEW : PASSWORD;

  const token = await userToken(identity, mallory.username, password, 'secrets:read');
  const refused = await reveal(key, token);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 'secret_for_recipient' });
  const browser = await webSignIn(mallory.username, `/secret/${key}`, password);
  expect((await browser.send(`/secret/${key}`)).status).toBe(403);
  await stillThere(key);
  // The link itself no longer worked: it was mailed to the attacker's former address.
  expect(used.res.status).toBe(400);
});

describe('a token issued while the account held the address no longer proves it once the account moved', () => {
  // With a passphrase, asking without it consumes nothing: 401 (passphrase required) shows the
  // caller was taken for the recipient, 403 that it was not.
  const PASSPHRASE = 'open sesame';

  it('a bearer token: refused once the move reaches the revocation feed, even where an administrator verified the new address', async () => {
    const bob = await person('bob');
    const token = await userToken(identity, bob.username, PASSWORD, 'secrets:read');
    const key = await shareFor(bob.email, PASSPHRASE);
    expect((await reveal(key, token)).status).toBe(401);

    expect((await adminPut(bob.id, { email: `moved-${bob.email}`, emailVerified: true })).status).toBe(204);
    await eventually(async () => ((await reveal(key, token)).status === 403 ? true : undefined));
    expect((await reveal(key, token, { passphrase: PASSPHRASE })).status).toBe(403);
    await stillThere(key);

    // A token issued after the move proves the new address, not the old one.
    const fresh = await userToken(identity, bob.username, PASSWORD, 'secrets:read');
    expect((await reveal(key, fresh, { passphrase: PASSPHRASE })).status).toBe(403);
    const forNew = await shareFor(`moved-${bob.email}`);
    expect((await reveal(forNew, fresh)).body).toMatchObject({ value: SECRET });
  });

  it('a web session: its page stops offering the secret once a move in the account console reaches the revocation feed', async () => {
    const dora = await person('dora');
    const key = await shareFor(dora.email);
    const browser = await webSignIn(dora.username, `/secret/${key}`);
    expect((await browser.send(`/secret/${key}`)).status).toBe(200);

    await consoleMovesTo(dora.username, `moved-${dora.email}`);
    await eventually(async () => ((await browser.send(`/secret/${key}`)).status === 403 ? true : undefined));
    const page = parseForms((await browser.send(`/secret/${key}`)).text).find((f) => f.action === `/secret/${key}/code`)!;
    expect((await browser.send(`/secret/${key}`, page.hidden)).status).toBe(403);
    await stillThere(key);
  });
});

describe('a recipient’s one-time code is bound to the secret and to its recipient’s address', () => {
  /** Asks the reveal page of `key` for a code, with `extra` fields an attacker might add. */
  async function askCode(key: string, extra: Record<string, string> = {}) {
    const browser = new Browser(h.url);
    const page = await browser.navigate(`/secret/${key}`);
    const hidden = parseForms(page.html).find((f) => f.action === `/secret/${key}/code`)!.hidden;
    expect((await browser.send(`/secret/${key}/code`, { ...hidden, ...extra })).status).toBe(200);
    return { browser, hidden };
  }
  const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] as string;

  it('the code goes to the recipient only, opens its own secret only, and the attacker’s own code opens nothing else', async () => {
    const recipient = `ruth-${randomBytes(3).toString('hex')}@example.com`;
    const attacker = `eve-${randomBytes(3).toString('hex')}@evil.test`;
    const x = await shareFor(recipient);
    const y = await shareFor(recipient);
    const z = await shareFor(attacker);
    await smtp.waitFor(recipient, 2); // the two link e-mails
    await smtp.waitFor(attacker, 1);

    // The attacker asks for X's code, naming their own address every way a form could: it goes to the recipient.
    const asked = await askCode(x, { to: attacker, recipient: attacker, email: attacker, address: attacker });
    const xCode = codeIn((await smtp.waitFor(recipient, 3))[2]?.mail.text);
    await askCode(z);
    const zCode = codeIn((await smtp.waitFor(attacker, 2))[1]?.mail.text);
    expect(smtp.received.filter((m) => m.to.includes(attacker))).toHaveLength(2);

    // The attacker's own code (for Z) does not open X; X's code does not open Y.
    expect((await asked.browser.send(`/secret/${x}`, { ...asked.hidden, code: zCode })).status).toBe(401);
    const yBrowser = new Browser(h.url);
    const yPage = await yBrowser.navigate(`/secret/${y}`);
    const yHidden = parseForms(yPage.html).find((f) => f.action === `/secret/${y}/code`)!.hidden;
    expect((await yBrowser.send(`/secret/${y}`, { ...yHidden, code: xCode })).status).toBe(401);
    await stillThere(x);
    await stillThere(y);

    const read = await asked.browser.send(`/secret/${x}`, { ...asked.hidden, code: xCode });
    expect(read.status).toBe(200);
    expect(read.text).toContain('payroll-db');
  });
});

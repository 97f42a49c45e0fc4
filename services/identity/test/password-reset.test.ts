import request from 'supertest';
import * as oidc from 'openid-client';
import { Browser, startSmtp, type TestSmtp } from '@hush/testing';
import { authorizationUrl } from './flows.js';
import { startIdentity, type Harness } from './harness.js';
import { askForReset, codeClient, inlineMail, linkMailedTo, REDIRECT, refreshTokenOf, revocationCount, stable } from './account-mail.js';

const OLD = 'correct horse battery staple';
const NEW = 'a brand new passphrase';

let h: Harness;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startIdentity({ ...inlineMail(smtp), RESET_MAX_PER_ADDRESS: '3', RESET_MAX_PER_IP: '6' });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

let n = 0;
/** A user of its own per test, with an address; and an IP address of its own (the limits count per IP). */
async function person(password = OLD) {
  n++;
  const username = `person${n}`;
  const email = `person${n}@example.com`;
  const { id } = await h.cli<{ id: string }>('users', 'create', username, '--password', password, '--email', email);
  return { id, username, email, ip: `198.51.100.${n}` };
}

/** Opens the e-mailed link and sets `password` (twice) through its form. */
async function setPassword(link: string, password: string, confirm = password) {
  const browser = new Browser(new URL(link).origin);
  const page = await browser.navigate(link);
  expect(page.res.status).toBe(200);
  return browser.submit(page.html, 0, { password, confirm });
}

describe('"Forgot password?"', () => {
  it('is linked from the login page and leads to a form that carries the sign-in it came from', async () => {
    const { config } = await codeClient(h);
    const { url } = await authorizationUrl(config, REDIRECT, 'openid');
    const browser = new Browser(url.origin);
    const login = await browser.navigate(url.toString());
    const href = /href="([^"]*reset-credentials[^"]*)"/.exec(login.html)?.[1];
    expect(href).toMatch(/\/login-actions\/reset-credentials\?interaction=[\w-]+$/);
    const form = await browser.navigate(href as string);
    expect(form.res.status).toBe(200);
    expect(form.html).toContain('name="interaction"');
  });

  it('mails a single-use link valid 15 minutes; the new password works, the old one and the old refresh token do not', async () => {
    const p = await person();
    const { config } = await codeClient(h);
    const refresh = await refreshTokenOf(config, 'openid', p.username, OLD);
    const revokedBefore = await revocationCount(h);

    const asked = await askForReset(h, p.username, p.ip);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Check your e-mail');
    const mail = await linkMailedTo(smtp, p.email);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(p.username);
    // 15 minutes from now, as the e-mail says (to the minute).
    const expiry = new Date(Date.now() + 15 * 60_000);
    expect(mail.text).toMatch(new RegExp(`${expiry.getUTCHours()}:\\d\\d UTC`));

    const done = await setPassword(mail.link, NEW);
    expect(done.res.status).toBe(200);
    expect(done.html).toContain('Your password has been changed.');
    expect(done.html).toContain('href="/auth/realms/public/account"');

    // Signed in with the new password; the old one is refused.
    await expect(refreshTokenOf(config, 'openid', p.username, NEW)).resolves.toEqual(expect.any(String));
    await expect(refreshTokenOf(config, 'openid', p.username, OLD)).rejects.toThrow();
    // The sessions and refresh tokens from before are gone, and announced on the revocation feed.
    await expect(oidc.refreshTokenGrant(config, refresh)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await revocationCount(h)).toBeGreaterThan(revokedBefore);

    // The link worked once.
    const again = await request(mail.link).get('');
    expect(again.status).toBe(400);
    expect(again.text).toContain('This link no longer works');
  });

  it('an older link of the same person stops working once a newer one set the password', async () => {
    const p = await person();
    await askForReset(h, p.username, p.ip);
    const older = await linkMailedTo(smtp, p.email);
    await askForReset(h, p.username, p.ip);
    const newer = await linkMailedTo(smtp, p.email, 2);
    expect((await setPassword(newer.link, NEW)).res.status).toBe(200);
    expect((await request(older.link).get('')).status).toBe(400);
  });

  it('finds the account by its e-mail address too', async () => {
    const p = await person();
    await askForReset(h, p.email.toUpperCase(), p.ip);
    const mail = await linkMailedTo(smtp, p.email);
    expect((await setPassword(mail.link, NEW)).res.status).toBe(200);
  });

  it('answers an unknown account exactly as a known one, and mails nothing', async () => {
    const p = await person();
    const known = await askForReset(h, p.username, p.ip);
    const unknown = await askForReset(h, `nobody-${p.username}`, p.ip);
    expect(unknown.status).toBe(known.status);
    expect(stable(unknown.text)).toBe(stable(known.text));
    await linkMailedTo(smtp, p.email);
    expect(smtp.received.filter((r) => r.to.some((to) => to.startsWith('nobody')))).toHaveLength(0);
  });

  it('keeps the link usable when the new password is refused, and refuses two different passwords', async () => {
    const p = await person();
    await askForReset(h, p.username, p.ip);
    const { link } = await linkMailedTo(smtp, p.email);
    const short = await setPassword(link, 'short');
    expect(short.res.status).toBe(400);
    expect(short.html).toContain('at least 8 characters');
    const differ = await setPassword(link, NEW, `${NEW}!`);
    expect(differ.res.status).toBe(400);
    expect(differ.html).toContain('The two passwords differ.');
    expect((await setPassword(link, NEW)).res.status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const p = await person();
    await askForReset(h, p.username, p.ip);
    const { link } = await linkMailedTo(smtp, p.email);
    // 15 minutes pass.
    await h.identity.context.db.raw(`UPDATE action_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ?::uuid`, [p.id]);
    const res = await request(link).get('');
    expect(res.status).toBe(400);
    expect(res.text).toContain('This link no longer works');
  });

  it('refuses a form without its CSRF token', async () => {
    const p = await person();
    await askForReset(h, p.username, p.ip);
    const { link } = await linkMailedTo(smtp, p.email);
    const key = new URL(link).searchParams.get('key') as string;
    const res = await request(h.issuer).post('/login-actions/action-token').type('form').send({ key, password: NEW, confirm: NEW });
    expect(res.status).toBe(400);
    // ...and the link still works.
    expect((await setPassword(link, NEW)).res.status).toBe(200);
  });

  it('limits requests per typed username or address (429 after 3), whoever asks', async () => {
    const p = await person();
    for (let i = 0; i < 3; i++) expect((await askForReset(h, p.username, `203.0.113.${i + 1}`)).status).toBe(200);
    const refused = await askForReset(h, p.username, '203.0.113.9');
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many requests');
  });

  it('limits requests per IP address (429 after 6), whatever is typed', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 6; i++) expect((await askForReset(h, `someone-${i}`, ip)).status).toBe(200);
    expect((await askForReset(h, 'someone-else', ip)).status).toBe(429);
  });

  it('records SEND_RESET_PASSWORD and RESET_PASSWORD, with neither token nor password', async () => {
    const p = await person();
    await askForReset(h, p.username, p.ip);
    const { link } = await linkMailedTo(smtp, p.email);
    await setPassword(link, NEW);
    await h.identity.context.db.raw('SELECT 1');
    const key = new URL(link).searchParams.get('key') as string;
    let rows: { type: string; details: unknown }[] = [];
    for (let i = 0; i < 50 && rows.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = (
        await h.identity.context.db.raw<{ rows: { type: string; details: unknown }[] }>(`SELECT type, details FROM events WHERE user_id = ? ORDER BY id`, [p.id])
      ).rows.filter((e) => ['SEND_RESET_PASSWORD', 'RESET_PASSWORD'].includes(e.type));
    }
    expect(rows.map((e) => e.type)).toEqual(['SEND_RESET_PASSWORD', 'RESET_PASSWORD']);
    const all = JSON.stringify(rows);
    expect(all).not.toContain(key);
    expect(all).not.toContain(NEW);
  });
});

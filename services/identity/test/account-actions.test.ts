import request from 'supertest';
import { Browser, parseForms, startSmtp, type TestSmtp } from '@hush/testing';
import { authorizationUrl } from './flows.js';
import { bootstrapAdmin, startIdentity, type Harness } from './harness.js';
import { codeClient, inlineMail, linkMailedTo, REDIRECT, refreshTokenOf } from './account-mail.js';

const PASSWORD = 'correct horse battery staple';
const NEW = 'a brand new passphrase';

let h: Harness;
let smtp: TestSmtp;
let admin: string;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startIdentity({ ...inlineMail(smtp), REGISTRATION: 'true', REGISTRATION_MAX_PER_IP: '3' });
  admin = await bootstrapAdmin(h);
}, 60_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

let n = 0;
async function person(opts: { email?: boolean } = {}) {
  n++;
  const username = `member${n}`;
  const email = `member${n}@example.com`;
  const { id } = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD, ...(opts.email === false ? [] : ['--email', email]));
  return { id, username, email };
}

const executeActions = (id: string, body: string[], query = '', token = admin) =>
  request(h.url).put(`/auth/admin/realms/public/users/${id}/execute-actions-email${query}`).set('authorization', `Bearer ${token}`).send(body);

async function adminEvents(userId: string): Promise<{ operation_type: string; resource_type: string; resource_path: string; representation: string | null }[]> {
  for (let i = 0; i < 50; i++) {
    const { rows } = await h.identity.context.db.raw<{ rows: { operation_type: string; resource_type: string; resource_path: string; representation: string | null }[] }>(
      `SELECT operation_type, resource_type, resource_path, representation FROM admin_events WHERE resource_path LIKE ?`,
      [`%${userId}%`],
    );
    if (rows.length) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

describe('PUT /users/{id}/execute-actions-email', () => {
  it('mails one link that sets a new password and verifies the address, then goes back to the application', async () => {
    const p = await person();
    const { c } = await codeClient(h);
    const res = await executeActions(p.id, ['UPDATE_PASSWORD', 'VERIFY_EMAIL'], `?lifespan=600&client_id=${c.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}`).type('json');
    expect(res.status).toBe(204);
    const mail = await linkMailedTo(smtp, p.email);
    expect(mail.subject).toBe('Update your account');
    expect(mail.text).toContain('choose a new password, then confirm your e-mail address');

    const browser = new Browser(new URL(mail.link).origin);
    const page = await browser.navigate(mail.link);
    expect(page.html).toContain('New password');
    const done = await browser.submit(page.html, 0, { password: NEW, confirm: NEW });
    expect(done.res.status).toBe(200);
    expect(done.html).toContain(`href="${REDIRECT}"`);
    expect((await h.identity.context.users.findById(p.id))?.emailVerified).toBe(true);
    const { config } = await codeClient(h);
    await expect(refreshTokenOf(config, 'openid', p.username, NEW)).resolves.toEqual(expect.any(String));
    expect((await request(mail.link).get('')).status).toBe(400);

    const events = await adminEvents(p.id);
    expect(events).toEqual([expect.objectContaining({ operation_type: 'ACTION', resource_type: 'USER', resource_path: `users/${p.id}/execute-actions-email` })]);
    expect(events[0]?.representation).toBe('["UPDATE_PASSWORD","VERIFY_EMAIL"]');
  });

  it('VERIFY_EMAIL alone: a button confirms the address; opening the link changes nothing', async () => {
    const p = await person();
    expect((await executeActions(p.id, ['VERIFY_EMAIL']).type('json')).status).toBe(204);
    const { link } = await linkMailedTo(smtp, p.email);
    const browser = new Browser(new URL(link).origin);
    const page = await browser.navigate(link);
    expect(page.html).toContain('Confirm my address');
    expect((await h.identity.context.users.findById(p.id))?.emailVerified).toBe(false);
    const done = await browser.submit(page.html, 0, {});
    expect(done.html).toContain('Your e-mail address is confirmed.');
    expect((await h.identity.context.users.findById(p.id))?.emailVerified).toBe(true);
  });

  it('CONFIGURE_TOTP sends the person to the account console’s security page', async () => {
    const p = await person();
    expect((await executeActions(p.id, ['CONFIGURE_TOTP']).type('json')).status).toBe(204);
    const { link } = await linkMailedTo(smtp, p.email);
    const browser = new Browser(new URL(link).origin);
    const page = await browser.navigate(link);
    const form = parseForms(page.html)[0]!;
    const res = await browser.send(form.action, form.hidden);
    expect(res.status).toBe(303);
    expect(res.headers['location']).toBe('/auth/realms/public/account/security');
  });

  it('refuses an unknown action, a user without an address, a foreign redirect URI, and a caller without manage-users', async () => {
    const p = await person();
    expect((await executeActions(p.id, ['FLY']).type('json')).status).toBe(400);
    const bare = await person({ email: false });
    expect(await executeActions(bare.id, ['UPDATE_PASSWORD']).type('json')).toMatchObject({ status: 400, body: { errorMessage: 'User email missing' } });
    const { c } = await codeClient(h);
    expect((await executeActions(p.id, ['UPDATE_PASSWORD'], `?client_id=${c.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/')}`).type('json')).status).toBe(400);
    expect((await executeActions('00000000-0000-4000-8000-000000000000', ['UPDATE_PASSWORD']).type('json')).status).toBe(404);
    expect((await executeActions(p.id, ['UPDATE_PASSWORD'], '', 'not-a-token').type('json')).status).toBe(401);
    expect(smtp.to(p.email)).toHaveLength(0);
  });
});

describe('self-registration (REGISTRATION=true)', () => {
  /** The login page of a fresh sign-in, in a browser that keeps its cookies. */
  async function loginPage() {
    const { config } = await codeClient(h);
    const { url } = await authorizationUrl(config, REDIRECT, 'openid');
    const browser = new Browser(url.origin);
    return { browser, login: await browser.navigate(url.toString()) };
  }

  it('registers from the login page; sign-in waits for the confirmed address, which can be mailed again', async () => {
    const { browser, login } = await loginPage();
    const href = /href="([^"]*registration[^"]*)"/.exec(login.html)?.[1] as string;
    expect(href).toMatch(/\/login-actions\/registration\?interaction=/);
    const form = await browser.navigate(href);
    const created = await browser.submit(form.html, 0, { username: 'newcomer', email: 'newcomer@example.com', password: PASSWORD, confirm: PASSWORD });
    expect(created.res.status).toBe(201);
    expect(created.html).toContain('Confirm your e-mail address');
    const first = await linkMailedTo(smtp, 'newcomer@example.com');
    expect(first.subject).toBe('Confirm your e-mail address');

    // Not confirmed yet: the right password gets a page that offers the link again.
    const refused = await browser.submit(login.html, 0, { username: 'newcomer', password: PASSWORD });
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain('Confirm your e-mail address first');
    const resent = await browser.submit(refused.html, 0, {});
    expect(resent.res.status).toBe(200);
    const second = await linkMailedTo(smtp, 'newcomer@example.com', 2);
    expect(second.link).not.toBe(first.link);

    const page = await browser.navigate(second.link);
    const done = await browser.submit(page.html, 0, {});
    expect(done.html).toContain('Your e-mail address is confirmed.');
    const continueHref = /href="([^"]*login-actions\/[^"?]+)">Continue signing in/.exec(done.html)?.[1] as string;
    const again = await browser.navigate(continueHref);
    const consent = await browser.submit(again.html, 0, { username: 'newcomer', password: PASSWORD });
    expect(consent.html).toContain('Allow');

    let types: string[] = [];
    // Events are written in batches, off the request's path.
    for (let i = 0; i < 50 && !types.includes('LOGIN'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const { rows } = await h.identity.context.db.raw<{ rows: { type: string }[] }>(
        `SELECT type FROM events WHERE user_id = (SELECT id::text FROM users WHERE username = 'newcomer') ORDER BY id`,
      );
      types = rows.map((r) => r.type);
    }
    expect(types).toEqual(['REGISTER', 'SEND_VERIFY_EMAIL', 'LOGIN_ERROR', 'SEND_VERIFY_EMAIL', 'VERIFY_EMAIL', 'LOGIN']);
  });

  it('refuses a taken username or address, two different passwords, and more than 3 registrations per IP', async () => {
    await person();
    const browser = new Browser(new URL(h.issuer).origin);
    const ip = { 'x-forwarded-for': '198.51.100.200' };
    const submit = async (fields: Record<string, string>) => {
      const page = await browser.send(`${h.issuer}/login-actions/registration`, undefined, ip);
      const form = parseForms(page.text)[0]!;
      return browser.send(form.action, { ...form.hidden, ...fields }, ip);
    };
    expect((await submit({ username: 'member1', email: 'fresh@example.com', password: PASSWORD, confirm: PASSWORD })).status).toBe(409);
    expect((await submit({ username: 'fresh', email: 'MEMBER1@example.com', password: PASSWORD, confirm: PASSWORD })).status).toBe(409);
    expect((await submit({ username: 'fresh', email: 'fresh@example.com', password: PASSWORD, confirm: 'other password' })).status).toBe(400);
    expect((await submit({ username: 'fresh', email: 'fresh@example.com', password: PASSWORD, confirm: PASSWORD })).status).toBe(429);
  });
});

describe('self-registration off (the default)', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await startIdentity({ DELIVERY_MODE: 'inline', SMTP_URL: smtp.url });
  });
  afterAll(() => off.close());

  it('has no Register link and no registration page', async () => {
    const { config } = await codeClient(off);
    const { url } = await authorizationUrl(config, REDIRECT, 'openid');
    const login = await new Browser(url.origin).navigate(url.toString());
    expect(login.html).toContain('Forgot password?');
    expect(login.html).not.toContain('registration');
    expect((await request(off.issuer).get('/login-actions/registration')).status).toBe(400);
    expect((await request(off.issuer).post('/login-actions/registration').type('form').send({ username: 'x' })).status).toBeGreaterThanOrEqual(400);
  });
});

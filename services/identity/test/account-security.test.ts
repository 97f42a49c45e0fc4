import { randomBytes } from 'node:crypto';
import { Browser, eventually } from '@hush/testing';
import { codeAt } from '../src/login/totp.js';
import { startIdentity, type Harness } from './harness.js';

/**
 * The account console's Security pages over HTTP: a signed-in person sets up an authenticator
 * app (wrong confirmation code refused), sees ten recovery codes once, gets new ones, removes the
 * app; each change is an event without a secret or code; forms without the session's token fail.
 */

const SECURITY = '/auth/realms/public/account/security';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.close());

async function signedIn() {
  const username = `s-${randomBytes(4).toString('hex')}`;
  const user = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD);
  const browser = new Browser(h.url);
  const login = await browser.navigate(SECURITY);
  const page = await browser.submit(login.html, 0, { username, password: PASSWORD });
  return { browser, page, username, id: user.id };
}

const secretOf = (html: string) => (/id="totp-secret">([A-Z2-7 ]+)</.exec(html)?.[1] ?? '').replace(/ /g, '');
const codesOf = (html: string) => [...html.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1] as string);

describe('the account console’s Security page', () => {
  it('is the signed-in person’s, in the console layout, and says that passkeys need JavaScript', async () => {
    const { page } = await signedIn();
    expect(page.url).toBe(`${h.url}${SECURITY}`);
    expect(page.html).toContain('<nav aria-label="Account">');
    expect(page.html).toContain('Set up an authenticator app');
    expect(page.html).toContain('Adding a passkey needs JavaScript.');
  });

  it('sets up an authenticator app: a wrong code is refused, the right one shows ten recovery codes once; then new codes, then removal', async () => {
    const { browser, username, id } = await signedIn();
    const enrol = await browser.navigate(`${SECURITY}/totp`);
    expect(enrol.html).toContain('<svg role="img"');
    const wrong = await browser.submit(enrol.html, 1, { code: '000000' === codeAt(secretOf(enrol.html), Date.now()) ? '111111' : '000000' });
    expect(wrong.res.status).toBe(400);
    const secret = secretOf(wrong.html);
    const done = await browser.submit(wrong.html, 1, { code: codeAt(secret, Date.now()) });
    expect(done.res.status).toBe(200);
    const codes = codesOf(done.html);
    expect(codes).toHaveLength(10);

    const overview = await browser.navigate(SECURITY);
    expect(overview.html).toContain('10 of 10 recovery codes left');
    expect(codesOf(overview.html)).toHaveLength(0);

    const again = await browser.submit(overview.html, 1, {});
    const fresh = codesOf(again.html);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);

    const removed = await browser.submit((await browser.navigate(SECURITY)).html, 2, {});
    expect(removed.html).toContain('The authenticator app was removed');
    expect(removed.html).toContain('Set up an authenticator app');

    // The events name what changed, never the secret or a code (they are written in batches, off the request's path).
    const events = await eventually(async () => {
      const stored = await h.identity.context.eventsRepository.userEvents({ user: id });
      const types = stored.map((e) => e.type);
      return types.includes('UPDATE_TOTP') && types.includes('REMOVE_TOTP') ? stored : undefined;
    });
    const text = JSON.stringify(events);
    expect(text).not.toContain(secret);
    for (const code of [...codes, ...fresh]) expect(text).not.toContain(code);
    expect(text).toContain(username);
  });

  it('a passkey answer that is no WebAuthn registration is refused with the page and its error (400)', async () => {
    const { browser, page } = await signedIn();
    const refused = await browser.submit(page.html, 1, { name: 'Laptop', response: '{"id":"x"}' });
    expect(refused.res.status).toBe(400);
    expect(refused.html).toContain('The passkey was not added.');
    expect(refused.html).toContain('No passkeys yet.');
  });

  it('a form without the session’s CSRF token is refused', async () => {
    const { browser } = await signedIn();
    const res = await browser.send(`${SECURITY}/recovery-codes`, { csrf: 'forged' });
    expect(res.status).toBe(400);
  });
});

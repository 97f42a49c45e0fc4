import * as oidc from 'openid-client';
import { Browser, parseForms } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';
const ACCOUNT = '/auth/realms/public/account';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'clara', '--password', PASSWORD, '--email', 'clara@example.com');
});
afterAll(() => h.close());

/** Signs clara in, in a fresh browser, to a fresh request of `config`'s client: the page after the password. */
async function signInFresh(config: oidc.Configuration, scope: string) {
  const { url } = await authorizationUrl(config, REDIRECT, scope);
  const browser = new Browser(url.origin);
  const login = await browser.navigate(url.toString());
  return { browser, after: await browser.submit(login.html, 0, { username: 'clara', password: PASSWORD }) };
}

describe('consent as the client requires it', () => {
  it('a client that does not require consent (first-party) gets its scopes with no consent page', async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT, firstParty: true });
    const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
    const { after } = await signInFresh(config, `openid profile ${c.read}`);
    expect(after.leftTo).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
  });

  it('a client that requires consent shows each scope by its description, and the answer is remembered in another browser until revoked', async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
    const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
    const first = await signInFresh(config, 'openid profile email');
    expect(first.after.html).toContain(`<h1>Allow client `);
    expect(first.after.html).toContain('Your name and username');
    expect(first.after.html).toContain('Your e-mail address, and whether it is confirmed');
    expect(first.after.html).not.toContain('<code>profile</code>');
    const allowed = await first.browser.submit(first.after.html, 0, {});
    expect(allowed.leftTo).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);

    // Another browser, a new session: no question.
    const second = await signInFresh(config, 'openid profile');
    expect(second.after.leftTo).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
    // A scope never allowed is asked for, alone.
    const more = await signInFresh(config, `openid ${c.read}`);
    expect(more.after.html).toContain('<h1>Allow client ');
    expect(more.after.html).not.toContain('Your name and username');
    expect(more.after.html).toContain(c.read);

    // Revoked in the account console: asked again.
    const browser = new Browser(h.url);
    const login = await browser.navigate(`${ACCOUNT}/applications`);
    const page = await browser.submit(login.html, 0, { username: 'clara', password: PASSWORD });
    expect(page.html).toContain(c.clientId);
    const formIndex = parseForms(page.html).findIndex((f) => f.action === `${ACCOUNT}/applications/revoke` && f.hidden['client'] === c.clientId);
    expect(formIndex).toBeGreaterThanOrEqual(0);
    await browser.submit(page.html, formIndex, {});
    const again = await signInFresh(config, 'openid profile');
    expect(again.after.html).toContain('<h1>Allow client ');
  });

  it('the client keeps whether it requires consent (the admin API reports it as consentRequired)', async () => {
    const third = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
    const first = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT, firstParty: true });
    const { clients } = h.identity.context;
    expect((await clients.find(third.clientId))?.consentRequired).toBe(true);
    expect((await clients.find(first.clientId))?.consentRequired).toBe(false);
  });
});

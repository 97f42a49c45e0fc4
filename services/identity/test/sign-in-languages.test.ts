import { Browser } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'greta', '--password', PASSWORD);
});
afterAll(() => h.close());

/** A fresh sign-in's login page, the authorization request carrying `extra`. */
async function loginPage(extra: Record<string, string> = {}) {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { url } = await authorizationUrl(config, REDIRECT, 'openid profile', extra);
  const browser = new Browser(url.origin);
  const page = await browser.navigate(url.toString());
  return { browser, page };
}

describe('the sign-in pages’ language', () => {
  it('ui_locales=de gives the German login page, with a switcher to English that is remembered', async () => {
    const { browser, page } = await loginPage({ ui_locales: 'de' });
    expect(page.html).toContain('<html lang="de">');
    expect(page.html).toMatch(/<h1>Bei client [0-9a-f]+ anmelden<\/h1>/);
    expect(page.html).toContain('<label for="password">Passwort</label>');
    expect(page.html).toContain('Passwort vergessen?');
    const english = /href="([^"]+)" hreflang="en"/.exec(page.html)?.[1]?.replace(/&amp;/g, '&');
    expect(english).toMatch(/kc_locale=en/);
    const switched = await browser.navigate(english!);
    expect(switched.html).toContain('<html lang="en">');
    expect(switched.html).toContain('<label for="password">Password</label>');
    expect(browser.cookie('hush_locale')).toBe('en');
  });

  it('a failed sign-in and the consent page keep the language; no hint: English', async () => {
    const { browser, page } = await loginPage({ ui_locales: 'de-AT en' });
    const failed = await browser.submit(page.html, 0, { username: 'greta', password: 'wrong' });
    expect(failed.html).toContain('Benutzername oder Passwort ist falsch.');
    const consent = await browser.submit(failed.html, 0, { username: 'greta', password: PASSWORD });
    expect(consent.html).toMatch(/<h1>client [0-9a-f]+ erlauben\?<\/h1>/);
    expect(consent.html).toContain('Ihren Namen und Benutzernamen');

    const plain = await loginPage();
    expect(plain.page.html).toContain('<html lang="en">');
  });
});

import type { Page } from 'playwright-core';
import { browserTests, type BrowserTab } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { clientToken, startWebWithIdentity } from '../../../services/secrets/test/identity.js';
import { authorizationUrl, clientConfig } from '../../../services/identity/test/flows.js';
import { codeAt } from '../../../services/identity/src/login/totp.js';

/**
 * The pages people meet most, in English and German, in Chromium: the consent page, the reveal
 * page of a handed-over credential, the second sign-in step, the signed-out page and the account
 * console's home (whose language follows the person's choice on it), and the share page's
 * zero-knowledge status in the page's language. In each language, colour scheme (light, dark) and
 * width (1280 px, 360 px): axe-core finds nothing of any impact, no CSP violation, no sideways
 * scrolling; screenshots in test-artifacts/page-languages/.
 */
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'http://127.0.0.1:9/callback';
const ACCOUNT = '/auth/realms/public/account';
type Locale = 'en' | 'de';

let identity: IdentityHarness;
let secrets: SecretsHarness;
const suite = browserTests('page-languages', async (own) => {
  ({ identity, h: secrets } = await startWebWithIdentity());
  own(identity);
  own(secrets);
});

/** A fresh browser asking for `locale` (Accept-Language). */
const freshPage = (locale: Locale): Promise<BrowserTab> => suite.newTab({ locale: locale === 'de' ? 'de-DE' : 'en-GB' });

const h1 = (page: Page) => page.locator('h1').innerText();

/** Every look of the page: axe finds nothing at all, nothing scrolls sideways, and a screenshot. */
const inspect = (page: Page, violations: string[], name: string) => suite.inspect(page, violations, name, { everyViolation: true });

async function signIn(page: Page, username: string) {
  await page.fill('#username', username);
  await page.fill('#password', PASSWORD);
  await page.click('form:has(#password) button[type=submit]');
}

it('the consent page, in the authorization request’s language, describes each scope', async () => {
  const client = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'Team wiki',
    '--id',
    'team-wiki',
    '--grants',
    'authorization_code',
    '--scopes',
    'openid,profile,email,secrets:read',
    '--redirect-uri',
    CALLBACK,
    '--consent-required',
  );
  const config = await clientConfig(identity.issuer, client.client_id, client.client_secret);
  for (const [locale, words] of [
    ['en', { heading: 'Allow Team wiki?', first: 'Know that it is you (your account’s identifier)' }],
    ['de', { heading: 'Team wiki erlauben?', first: 'Wissen, dass Sie es sind (die Kennung Ihres Kontos)' }],
  ] as const) {
    await identity.cli('users', 'create', `carla-${locale}`, '--password', PASSWORD, '--email', `carla-${locale}@example.com`, '--email-verified');
    // An English browser: the client's ui_locales alone names German.
    const { page, violations, close } = await freshPage('en');
    await page.goto((await authorizationUrl(config, CALLBACK, 'openid profile email secrets:read', { ui_locales: locale })).url.toString());
    await signIn(page, `carla-${locale}`);
    await expect(h1(page)).resolves.toBe(words.heading);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale);
    await expect(page.locator('ul.scopes li').first().innerText()).resolves.toBe(words.first);
    await inspect(page, violations, `consent-${locale}`);
    await close();
  }
}, 300_000);

it('the reveal page of a handed-over client secret names what it carries and who handed it over, before and after the reveal', async () => {
  const { accessToken } = await clientToken(identity, 'secrets:read secrets:write');
  for (const [locale, heading] of [
    ['en', 'Ada Admin handed you the client secret of Reports exporter'],
    ['de', 'Ada Admin hat Ihnen das Client-Secret von Reports exporter übergeben'],
  ] as const) {
    const res = await secrets.http.post('/api/v1/share').set('Authorization', `Bearer ${accessToken}`).type('form').send({
      secret: 'rx-3f9c2a7d41e8b6059c1d2e3f4a5b6c7d8e9f0a1b2c',
      handover_kind: 'client_secret',
      handover_name: 'Reports exporter',
      handover_id: 'reports-exporter',
      handover_by: 'Ada Admin',
    });
    expect(res.status).toBe(200);
    const { page, violations, close } = await freshPage(locale);
    await page.goto(`${secrets.url}/secret/${(res.body as { secret_key: string }).secret_key}`);
    await expect(h1(page)).resolves.toBe(heading);
    await inspect(page, violations, `handover-reveal-${locale}`);
    await page.click('#reveal');
    await expect(page.locator('#value').inputValue()).resolves.toBe('rx-3f9c2a7d41e8b6059c1d2e3f4a5b6c7d8e9f0a1b2c');
    await inspect(page, violations, `handover-revealed-${locale}`);
    await close();
  }
}, 300_000);

/** A person with an authenticator app, set up in the account console; the TOTP secret. */
async function personWithTotp(username: string): Promise<string> {
  await identity.cli('users', 'create', username, '--password', PASSWORD, '--email', `${username}@example.com`, '--name', 'Tess Example');
  const { page, close } = await freshPage('en');
  await page.goto(`${identity.url}${ACCOUNT}/security`);
  await signIn(page, username);
  await page.click('a:has-text("Set up an authenticator app")');
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/ /g, '');
  // The current step's code: still within the one step of drift allowed if the request is served
  // in the next one (the previous step's code would fall outside it then).
  await page.fill('#code', codeAt(secret, Date.now()));
  await page.click('button:has-text("Confirm")');
  await expect(h1(page)).resolves.toBe('Authenticator app set up');
  await close();
  return secret;
}

for (const [locale, words] of [
  ['en', { account: 'Signing in as', left: /\d+ attempts left/, home: 'Profile', nav: 'Security', signOut: 'Sign out', signedOut: 'You are signed out' }],
  ['de', { account: 'Anmeldung als', left: /Noch \d+ Versuche/, home: 'Profil', nav: 'Sicherheit', signOut: 'Abmelden', signedOut: 'Sie sind abgemeldet' }],
] as const) {
  it(`${locale}: the sign-in page in the browser's language, the second step naming the account and the attempts left, the account console’s home and the signed-out page`, async () => {
    const username = `tess-${locale}`;
    const secret = await personWithTotp(username);
    const { page, violations, close } = await freshPage(locale);
    await page.goto(`${identity.url}${ACCOUNT}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale);
    await signIn(page, username);
    await expect(page.locator('main').innerText()).resolves.toContain(`${words.account} ${username}`);
    await expect(page.locator('#attempts-left').innerText()).resolves.toMatch(words.left);
    await inspect(page, violations, `second-step-${locale}`);
    // The next step's code: never the enrolment's step (a code's step is used once), and accepted
    // whether the request is served in this step or the next.
    await page.fill('#code', codeAt(secret, Date.now() + 30_000));
    await page.click('form:has(#code) button[type=submit]');
    await expect(h1(page)).resolves.toBe(words.home);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale);
    await expect(page.locator('.console > nav a').nth(2).innerText()).resolves.toBe(words.nav);
    await expect(page.locator('#sign-out').innerText()).resolves.toBe(words.signOut);
    await inspect(page, violations, `account-home-${locale}`);
    await page.click('header.masthead #sign-out');
    await expect(h1(page)).resolves.toBe(words.signedOut);
    await inspect(page, violations, `signed-out-${locale}`);
    await close();
  }, 240_000);
}

it('the language chosen on the account console’s profile outranks the browser’s', async () => {
  await identity.cli('users', 'create', 'lena', '--password', PASSWORD, '--email', 'lena@example.com');
  const { page, close } = await freshPage('en');
  await page.goto(`${identity.url}${ACCOUNT}/`);
  await signIn(page, 'lena');
  await expect(h1(page)).resolves.toBe('Profile');
  await page.selectOption('#locale', 'de');
  await page.click('form:has(#locale) button[type=submit]');
  await expect(h1(page)).resolves.toBe('Profil');
  await expect(page.locator('[role=status]').innerText()).resolves.toBe('Ihr Profil wurde gespeichert.');
  const lena = await identity.identity.context.users.findByLogin('lena');
  expect(lena?.locale).toBe('de');
  await page.goto(`${identity.url}${ACCOUNT}/sessions`);
  await expect(h1(page)).resolves.toBe('Sitzungen');
  await close();
}, 120_000);

it('the share page’s zero-knowledge script speaks the page’s language', async () => {
  await identity.cli('users', 'create', 'zora', '--password', PASSWORD);
  const { page, close } = await freshPage('de');
  await page.goto(`${secrets.url}/`);
  await signIn(page, 'zora');
  await page.waitForURL(`${secrets.url}/`);
  await page.waitForSelector('#mode[data-mode=zero-knowledge]');
  await expect(page.locator('#mode').innerText()).resolves.toBe('In Ihrem Browser verschlüsselt: Der Server sieht weder Ihr Geheimnis noch den Schlüssel in seinem Link.');
  // Nothing to share: the script's refusal, in German.
  await page.locator('#secret').evaluate((el) => el.removeAttribute('required'));
  await page.click('form[data-zk-share] button[type=submit]:not([value=generate])');
  await expect(page.locator('[data-zk-error]').innerText()).resolves.toBe('Schreiben Sie ein Geheimnis oder wählen Sie eine Datei.');
  await close();
}, 120_000);

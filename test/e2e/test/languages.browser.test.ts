import { type Page } from 'playwright-core';
import { browserTests } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { clientToken, startWebWithIdentity } from '../../../services/secrets/test/identity.js';

/**
 * The secrets service's pages in English and German, in Chromium: the share page of a signed-in
 * person (one header: the product's name, the language switcher, who is signed in and Sign out)
 * and the reveal page of a handed-over client secret, which names what it carries, before and
 * after the reveal. The switcher is a plain link; its choice outlives the page (a cookie). In
 * each language, theme (light, dark) and width (1280 px, 360 px): no axe-core violation of any
 * impact, no CSP violation, no sideways scrolling; screenshots in test-artifacts/languages/.
 */
const PASSWORD = 'correct horse battery staple';

let identity: IdentityHarness;
let secrets: SecretsHarness;
const suite = browserTests('languages', async (own) => {
  ({ identity, h: secrets } = await startWebWithIdentity());
  own(identity);
  own(secrets);
  await identity.cli('users', 'create', 'wendy', '--password', PASSWORD);
});

const h1 = (page: Page) => page.locator('h1').innerText();

/** Every look of the page: axe finds nothing at all, nothing scrolls sideways, and a screenshot. */
const inspect = (page: Page, violations: string[], name: string) => suite.inspect(page, violations, name, { everyViolation: true });

it('shows the share page in English and German, switching by a plain link that is remembered', async () => {
  const { page, violations, close } = await suite.newTab();
  await page.goto(`${secrets.url}/`);
  await page.fill('#username', 'wendy');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  if ((await h1(page)).startsWith('Allow')) await page.click('button:has-text("Allow")');
  await page.waitForURL(`${secrets.url}/`);
  await expect(h1(page)).resolves.toBe('Share a secret');
  await expect(page.locator('header.masthead .product').innerText()).resolves.toBe('Hush');
  await expect(page.locator('header.masthead #signed-in-as').innerText()).resolves.toBe('wendy');
  await expect(page.locator('header.masthead #sign-out').innerText()).resolves.toBe('Sign out');
  await inspect(page, violations, 'share-en');

  await page.click('header.masthead a[hreflang=de]');
  await expect(h1(page)).resolves.toBe('Ein Geheimnis teilen');
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
  await expect(page.locator('#sign-out').innerText()).resolves.toBe('Abmelden');
  await page.fill('#secret', 'abc');
  await expect(page.locator('#count').innerText()).resolves.toBe('3 von 1000 Zeichen');
  await page.fill('#secret', '');
  await inspect(page, violations, 'share-de');

  // The choice stays: another page of the app, opened without kc_locale, is German too.
  await page.goto(`${secrets.url}/secrets`);
  await expect(h1(page)).resolves.toBe('Meine Geheimnisse');
  await close();
}, 300_000);

it('shows the reveal page of a handed-over client secret in English and German, naming what it carries', async () => {
  const { accessToken } = await clientToken(identity, 'secrets:read secrets:write');
  const handOver = async () => {
    const res = await secrets.http.post('/api/v1/share').set('Authorization', `Bearer ${accessToken}`).type('form').send({
      secret: 'rx-3f9c2a7d41e8b6059c1d2e3f4a5b6c7d8e9f0a1b2c',
      handover_kind: 'client_secret',
      handover_name: 'Reports exporter',
      handover_id: 'reports-exporter',
      handover_by: 'Ada Admin',
    });
    expect(res.status).toBe(200);
    return `${secrets.url}/secret/${(res.body as { secret_key: string }).secret_key}`;
  };

  for (const [locale, words] of [
    ['en', { heading: 'Ada Admin handed you the client secret of Reports exporter', label: 'The client secret of Reports exporter (reports-exporter)' }],
    ['de', { heading: 'Ada Admin hat Ihnen das Client-Secret von Reports exporter übergeben', label: 'Das Client-Secret von Reports exporter (reports-exporter)' }],
  ] as const) {
    const { page, violations, close } = await suite.newTab({ locale: locale === 'de' ? 'de-DE' : 'en-GB' });
    // The German reader's browser asks for German (Accept-Language); nothing in the link says so.
    await page.goto(await handOver());
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe(locale);
    await expect(h1(page)).resolves.toBe(words.heading);
    await expect(page.locator('header.masthead a[aria-current]').getAttribute('hreflang')).resolves.toBe(locale);
    await inspect(page, violations, `reveal-${locale}`);
    await page.click('#reveal');
    await expect(page.locator('label[for=value]').innerText()).resolves.toBe(words.label);
    await expect(page.locator('#value').inputValue()).resolves.toBe('rx-3f9c2a7d41e8b6059c1d2e3f4a5b6c7d8e9f0a1b2c');
    await inspect(page, violations, `revealed-${locale}`);
    await close();
  }
}, 300_000);

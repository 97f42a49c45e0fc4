import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cspViolations, inspectPage, connectChromium } from './chromium.js';
import { startIdentityWithMailer, type IdentityMail } from './identity-mail.js';
import { authorizationUrl } from '../../../services/identity/test/flows.js';
import { codeClient, REDIRECT } from '../../../services/identity/test/account-mail.js';

/**
 * The language of identity's own e-mails, in Chromium against identity whose e-mail goes through
 * the mail queue and the mailer to a real SMTP server: `ui_locales=de` on the authorization request
 * gives the German login page, and "Passwort vergessen?" from there a German reset e-mail (subject
 * and body; no code in the subject) whose link opens German pages, though the browser asks for
 * English. Without such a hint the account's `locale` attribute decides, then Accept-Language.
 * Pages checked (axe-core, 360 px, CSP) and photographed into test-artifacts/reset-language/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'reset-language');
const PASSWORD = 'correct horse battery staple';

let sys: IdentityMail;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  sys = await startIdentityWithMailer();
  for (const name of ['greta', 'hanna', 'ines']) await sys.identity.cli('users', 'create', name, '--password', PASSWORD, '--email', `${name}@example.com`);
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sys?.close();
});

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);
const h1 = (page: Page) => page.locator('h1').innerText();

/** The newest e-mail to `address`: subject, text, and its one link. */
async function mailTo(address: string) {
  const [mail] = await sys.smtp.waitFor(address, 1, 15_000);
  const text = mail!.mail.text ?? '';
  const link = /https?:\/\/\S+\/login-actions\/action-token\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in the e-mail:\n${text}`);
  return { subject: mail!.mail.subject ?? '', text, html: String(mail!.mail.html), link };
}

it('ui_locales=de: the German login page, a German reset e-mail from “Passwort vergessen?”, and its link’s pages in German', async () => {
  const { config } = await codeClient(sys.identity);
  // The browser asks for English: only the authorization request names German.
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  const violations = cspViolations(page);
  const { url } = await authorizationUrl(config, REDIRECT, 'openid', { ui_locales: 'de' });
  await page.goto(url.toString());
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
  await expect(h1(page)).resolves.toMatch(/^Bei .+ anmelden$/);
  await inspect(page, violations, 'login-de');

  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(h1(page)).resolves.toBe('Passwort vergessen?');
  await inspect(page, violations, 'forgot-de');
  await page.getByLabel('Benutzername oder E-Mail').fill('greta');
  await page.getByRole('button', { name: 'Link senden' }).click();
  await expect(h1(page)).resolves.toBe('Sehen Sie in Ihre E-Mails');

  const mail = await mailTo('greta@example.com');
  expect(mail.subject).toBe('Passwort zurücksetzen');
  expect(mail.subject).not.toMatch(/\d|key=|https?:/);
  expect(mail.text).toContain('Konto: greta');
  expect(mail.text).toContain('Jemand, hoffentlich Sie');
  expect(mail.html).toContain('lang="de"');

  await page.goto(mail.link);
  await expect(h1(page)).resolves.toBe('Neues Passwort wählen');
  await inspect(page, violations, 'set-password-de');
  await page.getByLabel('Neues Passwort', { exact: true }).fill('a new and longer passphrase');
  await page.getByLabel('Neues Passwort wiederholen').fill('a new and longer passphrase');
  await page.getByRole('button', { name: 'Neues Passwort speichern' }).click();
  await expect(h1(page)).resolves.toBe('Fertig');
  await expect(page.locator('[role=status]').innerText()).resolves.toContain('Ihr Passwort wurde geändert');
  await inspect(page, violations, 'done-de');
  await context.close();
}, 180_000);

it('without a hint on the request, the account’s locale attribute chooses the e-mail’s language, then Accept-Language', async () => {
  const hanna = await sys.identity.identity.context.users.findByLogin('hanna');
  await sys.identity.identity.context.users.update(hanna!.id, { locale: 'de' });
  const ask = async (login: string, browserLocale: string) => {
    const context = await browser.newContext({ locale: browserLocale });
    const page = await context.newPage();
    await page.goto(`${sys.identity.issuer}/login-actions/reset-credentials`);
    await page.locator('#login').fill(login);
    await page.locator('form button[type=submit]').click();
    await page.waitForSelector('[role=status]');
    const language = await page.locator('html').getAttribute('lang');
    await context.close();
    return language;
  };
  // An English browser, an account that chose German: the page is English, the e-mail German.
  await expect(ask('hanna', 'en-GB')).resolves.toBe('en');
  expect((await mailTo('hanna@example.com')).subject).toBe('Passwort zurücksetzen');
  // No choice on the account: the browser's language.
  await expect(ask('ines', 'de-DE')).resolves.toBe('de');
  expect((await mailTo('ines@example.com')).subject).toBe('Passwort zurücksetzen');
}, 120_000);

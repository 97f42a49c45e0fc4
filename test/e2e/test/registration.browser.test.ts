import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callbackReached, cspViolations, inspectPage, connectChromium } from './chromium.js';
import { startIdentityWithMailer, type IdentityMail } from './identity-mail.js';
import { authorizationUrl } from '../../../services/identity/test/flows.js';
import { codeClient, linkMailedTo, REDIRECT } from '../../../services/identity/test/account-mail.js';

/**
 * Self-registration (REGISTRATION=true) in Chromium: register from the login page, be refused at
 * sign-in until the address is confirmed (with the offer to send the link again), confirm it
 * through the e-mailed link, then sign in. Every page is checked (axe-core, 360 px, CSP) and
 * photographed into test-artifacts/registration/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'registration');
const PASSWORD = 'correct horse battery staple';

let sys: IdentityMail;
let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  sys = await startIdentityWithMailer({ REGISTRATION: 'true' });
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sys?.close();
});

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);

it('a person registers, confirms the address by e-mail and then signs in', async () => {
  const { config } = await codeClient(sys.identity);
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);
  const { url } = await authorizationUrl(config, REDIRECT, 'openid');
  await page.goto(url.toString());

  await page.getByRole('link', { name: 'Register' }).click();
  await page.waitForSelector('h1:has-text("Create an account")');
  await inspect(page, violations, 'register');
  await page.getByLabel('Username').fill('walt');
  await page.getByLabel('E-mail').fill('walt@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForSelector('h1:has-text("Confirm your e-mail address")');
  await inspect(page, violations, 'registered');
  const mail = await linkMailedTo(sys.smtp, 'walt@example.com');
  expect(mail.subject).toBe('Confirm your e-mail address');

  // Signing in before confirming: refused, with the link offered again.
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await page.getByLabel('Username').fill('walt');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForSelector('h1:has-text("Confirm your e-mail address first")');
  await inspect(page, violations, 'verify-email-first');

  await page.goto(mail.link);
  await page.waitForSelector('h1:has-text("Confirm your e-mail address")');
  await inspect(page, violations, 'confirm-address');
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.waitForSelector('h1:has-text("Done")');
  await inspect(page, violations, 'address-confirmed');

  await page.getByRole('link', { name: 'Continue signing in' }).click();
  await page.getByLabel('Username').fill('walt');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const callback = await callbackReached(page, REDIRECT, () => page.getByRole('button', { name: 'Allow' }).click());
  expect(callback.searchParams.get('code')).toBeTruthy();
  await context.close();
}, 120_000);

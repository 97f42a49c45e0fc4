import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { callbackReached, cspViolations, inspectPage, connectChromium } from './chromium.js';
import { startIdentityWithMailer, type IdentityMail } from './identity-mail.js';
import { authorizationUrl } from '../../../services/identity/test/flows.js';
import { codeClient, linkMailedTo, REDIRECT, refreshTokenOf } from '../../../services/identity/test/account-mail.js';

/**
 * The Done-when line of password reset, in Chromium against identity whose e-mail goes through
 * the mail queue and the mailer to a real SMTP server: a person follows "Forgot password?",
 * receives the e-mail, sets a new password through the link and signs in with it; the link then
 * no longer works; the old password and the old refresh token are refused. Every page is checked
 * (axe-core, 360 px, CSP) and photographed into test-artifacts/password-reset/.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'password-reset');
const OLD = 'correct horse battery staple';
const NEW = 'a new and longer passphrase';

let sys: IdentityMail;
let browser: Browser;
let paula: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  sys = await startIdentityWithMailer();
  paula = (await sys.identity.cli<{ id: string }>('users', 'create', 'paula', '--password', OLD, '--email', 'paula@example.com')).id;
  browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sys?.close();
});

const inspect = (page: Page, violations: string[], name: string) => inspectPage(page, violations, name, ARTIFACTS);

it('a person resets a forgotten password by e-mail and signs in with the new one; the link, the old password and the old refresh token are refused', async () => {
  const { identity, smtp } = sys;
  const { config } = await codeClient(identity);
  // Signed in somewhere before: a refresh token from the old password.
  const oldRefresh = await refreshTokenOf(config, 'openid', 'paula', OLD);

  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolations(page);

  const { url, verifier, state } = await authorizationUrl(config, REDIRECT, 'openid');
  await page.goto(url.toString());
  await inspect(page, violations, 'login');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForSelector('h1:has-text("Forgot your password?")');
  await inspect(page, violations, 'forgot-password');
  await page.getByLabel('Username or e-mail').fill('paula');
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await page.waitForSelector('h1:has-text("Check your e-mail")');
  await inspect(page, violations, 'check-email');

  const mail = await linkMailedTo(smtp, 'paula@example.com');
  expect(mail.subject).toBe('Reset your password');
  await page.goto(mail.link);
  await page.waitForSelector('h1:has-text("Choose a new password")');
  await inspect(page, violations, 'set-password');
  await page.getByLabel('New password', { exact: true }).fill(NEW);
  await page.getByLabel('New password again').fill(NEW);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await page.waitForSelector('h1:has-text("Done")');
  await inspect(page, violations, 'password-changed');

  // Back to the sign-in the person started from, with the new password.
  await page.getByRole('link', { name: 'Continue signing in' }).click();
  await page.getByLabel('Username').fill('paula');
  await page.getByLabel('Password').fill(NEW);
  // paula allowed this client when she signed in before: remembered, so no consent page. The test reads the code off the application's redirect URI.
  const callback = await callbackReached(page, REDIRECT, () => page.getByRole('button', { name: 'Sign in', exact: true }).click());
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  expect(tokens.claims()?.sub).toBe(paula);

  // The link worked once.
  await page.goto(mail.link);
  await page.waitForSelector('h1:has-text("This link no longer works")');
  await inspect(page, violations, 'link-used');

  // The old password and the refresh token from before the reset are refused.
  await expect(refreshTokenOf(config, 'openid', 'paula', OLD)).rejects.toThrow();
  await expect(oidc.refreshTokenGrant(config, oldRefresh)).rejects.toMatchObject({ error: 'invalid_grant' });
  await context.close();
}, 120_000);

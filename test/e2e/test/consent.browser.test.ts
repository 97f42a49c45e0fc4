import { type Page } from 'playwright-core';
import { browserTests, callbackReached } from './chromium.js';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWebWithIdentity } from '../../../services/secrets/test/identity.js';
import { authorizationUrl, clientConfig } from '../../../services/identity/test/flows.js';

/**
 * Consent as Keycloak asks it, in Chromium: Hush's own web app (a first-party client, the admin
 * API's consentRequired false) signs a person in with no consent page; a client that requires
 * consent shows what it asks for by description, and a second browser is not asked again.
 * Screenshots of the consent page (1280 px light, 360 px dark) in test-artifacts/identity/.
 */
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'http://127.0.0.1:9/callback';

let identity: IdentityHarness;
let secrets: SecretsHarness;
const suite = browserTests('identity', async (own) => {
  ({ identity, h: secrets } = await startWebWithIdentity());
  own(identity);
  own(secrets);
  await identity.cli('users', 'create', 'cora', '--password', PASSWORD, '--email', 'cora@example.com', '--email-verified');
});

async function signIn(page: Page) {
  await page.fill('#username', 'cora');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
}

const h1 = (page: Page) => page.locator('h1').textContent();

it('the web app (first-party) signs in with no consent page', async () => {
  const web = await identity.identity.context.clients.find('hush-secrets-web');
  expect(web?.consentRequired).toBe(false);
  const { page, close } = await suite.newTab();
  await page.goto(`${secrets.url}/`);
  await expect(h1(page)).resolves.toBe('Sign in to Hush');
  await signIn(page);
  // Straight back to the app: a consent page would stop the browser at identity.
  await page.waitForURL(`${secrets.url}/`);
  await expect(h1(page)).resolves.toBe('Share a secret');
  await close();
});

it('a client that requires consent shows its scopes by description and is not asked again from another browser', async () => {
  const client = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'Reports exporter',
    '--id',
    'reports-exporter',
    '--grants',
    'authorization_code',
    '--scopes',
    'openid,profile,email,secrets:read',
    '--redirect-uri',
    CALLBACK,
    '--consent-required',
  );
  const config = await clientConfig(identity.issuer, client.client_id, client.client_secret);
  const scope = 'openid profile email secrets:read';

  const first = await suite.newTab();
  await first.page.goto((await authorizationUrl(config, CALLBACK, scope)).url.toString());
  await signIn(first.page);
  await expect(h1(first.page)).resolves.toBe('Allow Reports exporter?');
  const lines = await first.page.locator('ul.scopes li').allTextContents();
  expect(lines).toEqual([
    'Know that it is you (your account’s identifier)',
    'Your name and username',
    'Your e-mail address, and whether it is confirmed',
    'See the secrets you shared and read secrets shared with you',
  ]);
  await suite.inspect(first.page, first.violations, 'identity-consent');
  const allowed = await callbackReached(first.page, CALLBACK, () => first.page.click('button:has-text("Allow")'));
  expect(allowed.searchParams.get('code')).toBeTruthy();
  await first.close();

  // Another browser: the answer is remembered for this person and client.
  const second = await suite.newTab();
  await second.page.goto((await authorizationUrl(config, CALLBACK, scope)).url.toString());
  const remembered = await callbackReached(second.page, CALLBACK, () => signIn(second.page));
  expect(remembered.searchParams.get('code')).toBeTruthy();
  await second.close();
});

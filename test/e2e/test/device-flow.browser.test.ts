import { type Browser } from 'playwright-core';
import { cspViolations, connectChromium } from './chromium.js';
import { eventually, postForm } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';

/**
 * RFC 8628 from start to token, as an ops team's CLI uses it against Keycloak: the CLI asks at
 * `…/protocol/openid-connect/auth/device` and polls the token endpoint, while a person opens the
 * verification URI in Chromium, types the code, signs in, allows, and sees the success page.
 */
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const PASSWORD = 'correct horse battery staple';

let identity: Harness;
let browser: Browser;
beforeAll(async () => {
  identity = await startIdentity();
  browser = await connectChromium();
});
afterAll(async () => {
  await browser?.close();
  await identity?.close();
});

it('gives the device its tokens once the person approves in the browser', async () => {
  await identity.cli('users', 'create', 'olga', '--password', PASSWORD);
  await identity.cli(
    'clients',
    'create',
    '--consent-required',
    '--id',
    'ops-cli',
    '--name',
    'Ops CLI',
    '--public',
    '--grants',
    `${DEVICE},refresh_token`,
    '--scopes',
    'openid,profile',
  );
  const tokenUrl = `${identity.issuer}/protocol/openid-connect/token`;

  const started = await postForm(`${identity.issuer}/protocol/openid-connect/auth/device`, { client_id: 'ops-cli', scope: 'openid profile' });
  expect(started.status).toBe(200);
  const { device_code, user_code, verification_uri } = started.body as { device_code: string; user_code: string; verification_uri: string };
  const poll = () => postForm(tokenUrl, { grant_type: DEVICE, device_code, client_id: 'ops-cli' });
  expect((await poll()).body['error']).toBe('authorization_pending');

  const page = await browser.newPage();
  const violations = cspViolations(page);
  await page.goto(verification_uri);
  await expect(page.locator('h1').textContent()).resolves.toBe('Connect a device');
  await page.fill('#user_code', user_code);
  await page.click('button:has-text("Continue")');
  await expect(page.locator('h1').textContent()).resolves.toBe('Connect Ops CLI?');
  await expect(page.locator('code').textContent()).resolves.toBe(user_code);
  await page.click('button:has-text("Continue")');
  await page.fill('#username', 'olga');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]:has-text("Sign in")');
  await expect(page.locator('h1').textContent()).resolves.toBe('Allow Ops CLI?');
  await page.click('button:has-text("Allow")');
  await expect(page.locator('h1').textContent()).resolves.toBe('Device connected');
  expect(violations).toEqual([]);
  await page.close();

  // The device polls (RFC 8628 §3.5: every 5 s when no `interval` is given; here at once, the approval is done).
  const tokens = await eventually(async () => {
    const res = await poll();
    return res.status === 200 ? res.body : undefined;
  });
  expect(tokens).toMatchObject({ token_type: 'Bearer' });
  const userinfo = await fetch(`${identity.issuer}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${String(tokens['access_token'])}` } });
  await expect(userinfo.json()).resolves.toMatchObject({ preferred_username: 'olga' });
}, 60_000);

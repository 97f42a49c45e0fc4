import { Browser, TcpProxy, testRedisUrl } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * While Redis (where passkey challenges wait) is unreachable, the login page still answers with
 * its password form, and says that passkeys are unavailable; the password sign-in still works.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';
const proxy = new TcpProxy(testRedisUrl);
let h: Harness;

beforeAll(async () => {
  await proxy.start();
  h = await startIdentity({}, { redis: proxy });
  await h.cli('users', 'create', 'rita', '--password', PASSWORD);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await proxy.stop();
});

it('the login page works without Redis, without the passkey button', async () => {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
  const browser = new Browser(url.origin);
  await proxy.stop();
  const login = await browser.navigate(url.toString());
  expect(login.res.status).toBe(200);
  expect(login.html).toContain('name="password"');
  expect(login.html).toContain('Signing in with a passkey is unavailable right now.');
  const consent = await browser.submit(login.html, 0, { username: 'rita', password: PASSWORD });
  expect(consent.html).toContain('asks for access to your account');
  await proxy.start();
}, 60_000);

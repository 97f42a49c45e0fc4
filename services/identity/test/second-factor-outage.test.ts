import { Browser, TcpProxy, testRedisUrl } from '@hush/testing';
import { authorizationUrl, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * While Redis (where passkey challenges wait) is unreachable, the login page still answers with
 * its password form (it stores no challenge: its passkey button asks for one, and is told the
 * service is unavailable); the password sign-in still works.
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

it('the login page works without Redis; its passkey button is told passkeys are unavailable', async () => {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const { url } = await authorizationUrl(config, REDIRECT, `openid ${c.read}`);
  const browser = new Browser(url.origin);
  await proxy.stop();
  const login = await browser.navigate(url.toString());
  expect(login.res.status).toBe(200);
  expect(login.html).toContain('name="password"');
  const optionsUrl = /data-options-url="([^"]+)"/.exec(login.html)![1]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(login.html)![1]!;
  const options = await browser.send(optionsUrl, { csrf });
  expect(options.status).toBe(503);
  expect(options.headers['retry-after']).toBeDefined();
  const consent = await browser.submit(login.html, 0, { username: 'rita', password: PASSWORD });
  expect(consent.html).toContain('<h1>Allow ');
  await proxy.start();
}, 60_000);

import { Browser, parseForms, postForm } from '@hush/testing';
import { startIdentity, type Harness } from './harness.js';

/**
 * RFC 8628's device authorization grant at Keycloak's path, its user-code pages on our layout
 * and behind the login, and the errors a device and a person can meet. (The whole flow with a
 * person approving in Chromium: test/e2e/test/device-flow.browser.test.ts.)
 */
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
let deviceUrl: string;
let tokenUrl: string;
let cliClient: string;
beforeAll(async () => {
  h = await startIdentity();
  deviceUrl = `${h.issuer}/protocol/openid-connect/auth/device`;
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  await h.cli('users', 'create', 'otto', '--password', PASSWORD);
  cliClient = (
    await h.cli<{ client_id: string }>(
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
    )
  ).client_id;
});
afterAll(() => h.close());

const start = async () => {
  const res = await postForm(deviceUrl, { client_id: cliClient, scope: 'openid profile' });
  expect(res.status).toBe(200);
  return res.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };
};
const poll = (deviceCode: string) => postForm(tokenUrl, { grant_type: DEVICE, device_code: deviceCode, client_id: cliClient });

/** Opens the verification page in a fresh browser and submits `code`; returns the page that follows. */
async function enterCode(code: string, browser = new Browser(h.url)) {
  const input = await browser.navigate(`${h.issuer}/device`);
  expect(input.html).toContain('<label for="user_code">');
  return { browser, page: await browser.submit(input.html, 0, { user_code: code }) };
}

it('answers the device authorization request at Keycloak’s path with a verification URI on the realm', async () => {
  const body = await start();
  expect(body.verification_uri).toBe(`${h.issuer}/device`);
  expect(body.verification_uri_complete).toBe(`${h.issuer}/device?user_code=${encodeURIComponent(body.user_code)}`);
  expect(body.user_code).toMatch(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);
  expect(body.expires_in).toBe(600);
  expect((await poll(body.device_code)).body.error).toBe('authorization_pending');
});

it('refuses a client whose grant types lack the device grant', async () => {
  await h.cli(
    'clients',
    'create',
    '--consent-required',
    '--id',
    'web-only',
    '--name',
    'Web',
    '--public',
    '--grants',
    'authorization_code',
    '--scopes',
    'openid',
    '--redirect-uri',
    'http://127.0.0.1:9/cb',
  );
  const res = await postForm(deviceUrl, { client_id: 'web-only', scope: 'openid' });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatch(/^(unauthorized_client|invalid_request)$/);
  expect((await postForm(tokenUrl, { grant_type: DEVICE, device_code: 'whatever', client_id: 'web-only' })).status).toBe(400);
});

it('signs the person in before the approval, then gives the device its tokens once', async () => {
  const { device_code, user_code } = await start();
  const { browser, page: confirm } = await enterCode(user_code.toLowerCase().replace('-', ' '));
  expect(confirm.html).toContain('Connect Ops CLI?');
  expect(confirm.html).toContain(`<code>${user_code}</code>`);
  const login = await browser.submit(confirm.html, 0, {});
  expect(login.html).toContain('<label for="password">');
  expect((await poll(device_code)).body.error).toBe('authorization_pending');

  const consent = await browser.submit(login.html, 0, { username: 'otto', password: PASSWORD });
  const done = await browser.submit(consent.html, 0, {});
  expect(done.html).toContain('Device connected');

  const tokens = await poll(device_code);
  expect(tokens.status).toBe(200);
  expect(tokens.body).toMatchObject({ token_type: 'Bearer' });
  expect(tokens.body['access_token']).toBeTruthy();
  expect(tokens.body['id_token']).toBeTruthy();
  expect(tokens.body['refresh_token']).toBeTruthy();
  expect((await poll(device_code)).body.error).toBe('invalid_grant');
});

it('tells the person an unknown code is not valid, on the same page', async () => {
  const { page } = await enterCode('BCDF-GHJK');
  expect(page.res.status).toBe(200);
  expect(page.html).toContain('That code is not valid');
  expect(page.html).toContain('value="BCDF-GHJK"');
  expect(page.res.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
});

it('tells the person an expired code has expired, and the device gets expired_token', async () => {
  const { device_code, user_code } = await start();
  const db = h.identity.context.db;
  await db.raw(
    `UPDATE oidc_models SET expires_at = now() - interval '1 second', payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch from now())::int - 1)) WHERE model = 'DeviceCode' AND user_code = ?`,
    [user_code.replace('-', '')],
  );
  const { page } = await enterCode(user_code);
  expect(page.html).toContain('That code has expired');
  expect((await poll(device_code)).body.error).toBe('expired_token');
});

it('when the person denies, the device gets access_denied and the code cannot be used again', async () => {
  const { device_code, user_code } = await start();
  const { browser, page: confirm } = await enterCode(user_code);
  const denied = await browser.submit(confirm.html, 1, {});
  expect(denied.html).toContain('cancelled');
  expect((await poll(device_code)).body.error).toBe('access_denied');
  expect((await enterCode(user_code)).page.html).toContain('already been used');
});

it('refuses a code form posted from another site', async () => {
  const { user_code } = await start();
  const browser = new Browser(h.url);
  const input = await browser.navigate(`${h.issuer}/device`);
  const form = parseForms(input.html)[0];
  const res = await browser.send(form?.action as string, { ...form?.hidden, user_code }, { Origin: 'https://evil.example.com' });
  expect(res.status).toBe(403);
  expect(res.text).toContain('cross_origin');
});

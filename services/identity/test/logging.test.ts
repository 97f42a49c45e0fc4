import { postForm } from '@hush/testing';
import { createApiAndClient, type Harness, refreshGrant, startIdentity } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({ CLIENT_AUTH_MAX_FAILURES: '2' });
});
afterAll(() => h.close());

it('logs (at debug level) never contain client secrets, tokens or passwords', async () => {
  const c = await createApiAndClient(h);
  const tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  const ok = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
  await refreshGrant(tokenUrl, c, String(ok.body['refresh_token']));
  for (let i = 0; i < 3; i++) {
    await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: 'wrong-secret-value' });
  }
  await postForm(`${tokenUrl}?client_secret=${c.clientSecret}`, { grant_type: 'client_credentials' });

  const logs = h.logs.join('\n');
  expect(logs.length).toBeGreaterThan(0);
  for (const value of [c.clientSecret, String(ok.body['access_token']), String(ok.body['refresh_token']), 'wrong-secret-value']) {
    expect(logs).not.toContain(value);
  }
});

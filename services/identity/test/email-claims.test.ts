import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { authorize, clientConfig } from './flows.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

/**
 * A user's API access token names the user's address and whether identity verified it (`email`,
 * `email_verified`, as Keycloak's): resource servers (the secrets service's recipient-only
 * secrets) match people by a verified address. `users create --email-verified` marks it verified.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.cli('users', 'create', 'vic', '--password', PASSWORD, '--email', 'vic@example.com', '--email-verified');
  await h.cli('users', 'create', 'una', '--password', PASSWORD, '--email', 'una@example.com');
  await h.cli('users', 'create', 'nia', '--password', PASSWORD);
});
afterAll(() => h.close());

async function accessTokenClaims(username: string) {
  const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: REDIRECT });
  const config = await clientConfig(h.issuer, c.clientId, c.clientSecret);
  const flow = await authorize(config, { redirectUri: REDIRECT, scope: `openid ${c.read}`, username, password: PASSWORD });
  const tokens = await oidc.authorizationCodeGrant(config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
  return (await jwtVerify(tokens.access_token, jwks, { issuer: h.issuer, audience: c.api })).payload;
}

it('a verified address: email and email_verified true', async () => {
  expect(await accessTokenClaims('vic')).toMatchObject({ email: 'vic@example.com', email_verified: true });
});

it('an address never verified: email_verified false', async () => {
  expect(await accessTokenClaims('una')).toMatchObject({ email: 'una@example.com', email_verified: false });
});

it('no address: neither claim', async () => {
  const claims = await accessTokenClaims('nia');
  expect(claims).not.toHaveProperty('email');
  expect(claims).not.toHaveProperty('email_verified');
});

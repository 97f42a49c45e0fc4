import * as oidc from 'openid-client';
import { postForm } from '@hush/testing';
import { authorize, clientConfig } from '../flows.js';
import { startIdentity, type Harness } from '../harness.js';
import { adminCallers, type AdminCallers } from './admin-callers.js';

/**
 * The admin API tells a stranger from an unprivileged caller, as Keycloak does: a valid access
 * token of this realm without the rights a call needs is 403 (what Keycloak's admin library reports
 * as forbidden), whatever it was issued for; anything that is not a valid access token of this
 * realm (none, garbage, another realm's, an ID or refresh token, a deleted client's) is 401.
 */

let h: Harness;
let other: Harness;
let a: AdminCallers;
const REDIRECT = 'https://app.example.com/cb';

beforeAll(async () => {
  [h, other] = await Promise.all([startIdentity(), startIdentity()]);
  a = await adminCallers(h);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await other?.close();
});

const tokenOf = async (harness: Harness, clientId: string, secret: string, extra: Record<string, string> = {}) => {
  const res = await postForm(`${harness.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, ...extra });
  expect(res.status).toBe(200);
  return res.body as { access_token: string };
};

/** A person's tokens from signing in to an app of this realm with `scope`. */
async function signedIn(scope: string) {
  const password = 'a person’s long password';
  const username = `person-${scope.replace(/\W/g, '-')}`;
  await h.cli('users', 'create', username, '--password', password);
  const app = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    `app ${scope}`,
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    scope.replace(/ /g, ','),
    '--redirect-uri',
    REDIRECT,
  );
  const config = await clientConfig(h.issuer, app.client_id, app.client_secret);
  const { callback, verifier, state } = await authorize(config, { redirectUri: REDIRECT, scope, username, password });
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
}

const FORBIDDEN = { status: 403, body: { error: 'HTTP 403 Forbidden' } };
const UNAUTHORIZED = { status: 401, body: { error: 'HTTP 401 Unauthorized' } };

describe('a valid access token of this realm without the rights: 403', () => {
  it('a client’s token for another API', async () => {
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'reader', '--grants', 'client_credentials', '--scopes', 'secrets:read');
    const { access_token } = await tokenOf(h, c.client_id, c.client_secret);
    for (const [method, path] of [
      ['GET', '/users'],
      ['GET', '/clients'],
      ['POST', '/users'],
      ['GET', '/admin-events'],
    ] as const) {
      expect(await a.call(access_token, method, path, method === 'POST' ? { username: 'nope' } : undefined)).toMatchObject(FORBIDDEN);
    }
  });

  it('a client’s token for the OpenID scopes only', async () => {
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'plain', '--grants', 'client_credentials', '--scopes', 'openid');
    const { access_token } = await tokenOf(h, c.client_id, c.client_secret);
    expect(await a.call(access_token, 'GET', '/users')).toMatchObject(FORBIDDEN);
  });

  it('a person’s token from signing in to an app (keycloak-js’s, for userinfo and the account API)', async () => {
    const tokens = await signedIn('openid profile');
    expect(await a.call(tokens.access_token, 'GET', '/users')).toMatchObject(FORBIDDEN);
    expect(await a.call(tokens.access_token, 'GET', '/clients')).toMatchObject(FORBIDDEN);
  });

  it('a token for the admin API without any realm-management role', async () => {
    const { token } = await a.clientHolding('');
    expect(await a.call(token, 'GET', '/users')).toMatchObject(FORBIDDEN);
  });
});

describe('anything else: 401, with a Bearer challenge', () => {
  it('no token, garbage, and a token that is not an access token (an ID token, a refresh token)', async () => {
    const tokens = await signedIn('openid email');
    for (const authorization of [undefined, 'Bearer', 'Bearer not-a-token', 'Basic aGk6aGk=', `Bearer ${tokens.id_token!}`, `Bearer ${tokens.refresh_token!}`]) {
      const res = await fetch(`${h.url}/auth/admin/realms/public/users`, { headers: authorization ? { authorization } : {} });
      expect({ authorization: authorization?.slice(0, 20), status: res.status, body: await res.json() }).toMatchObject({
        ...UNAUTHORIZED,
        authorization: authorization?.slice(0, 20),
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="public"/);
    }
  });

  it('a valid token of another realm, even one for its admin API with realm-admin', async () => {
    const boot = await other.cli<{ admin_client: { client_secret: string } }>('bootstrap', '--secrets-audience', 'https://secrets-other.example.com/api/v1');
    const { access_token } = await tokenOf(other, 'hush-admin', boot.admin_client.client_secret);
    expect(await a.call(access_token, 'GET', '/users')).toMatchObject(UNAUTHORIZED);
  });

  it('a token of a client deleted since, and of a client disabled since', async () => {
    const gone = await a.clientHolding('view-users');
    const off = await a.clientHolding('view-users');
    expect((await a.call(gone.token, 'GET', '/users')).status).toBe(200);
    await h.cli('clients', 'delete', gone.clientId);
    await h.cli('clients', 'update', off.clientId, '--disable');
    expect(await a.call(gone.token, 'GET', '/users')).toMatchObject(UNAUTHORIZED);
    expect(await a.call(off.token, 'GET', '/users')).toMatchObject(UNAUTHORIZED);
  });
});

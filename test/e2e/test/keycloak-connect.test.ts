import type { Server } from 'node:http';
import express from 'express';
import session from 'express-session';
import Keycloak from 'keycloak-connect';
import { Browser, listenOnFreePort } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import type { Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { startWithIdentity } from '../../../services/secrets/test/identity.js';

// Keycloak's own Node adapter, keycloak-connect (its npm package, unchanged), against a running
// identity service: the grant manager's calls (client credentials with no scope, live validation,
// refresh, userinfo), protect() in bearer-only mode, and its web login (confidential client, no PKCE).

const PASSWORD = 'a long enough password';

let identity: IdentityHarness;
let secrets: SecretsHarness;
let app: { server: Server; url: string };
let client: { client_id: string; client_secret: string };
let keycloak: Keycloak.Keycloak;
let bearerOnly: Keycloak.Keycloak;
let userId: string;

/** keycloak.json as an application has it (the package's typings leave out `credentials`). */
const adapterConfig = (extra: Partial<Keycloak.KeycloakConfig> = {}): Keycloak.KeycloakConfig & { credentials: { secret: string } } => ({
  realm: 'public',
  'auth-server-url': `${new URL(identity.issuer).origin}/auth`,
  resource: client.client_id,
  credentials: { secret: client.client_secret },
  'confidential-port': 0,
  'ssl-required': 'none',
  ...extra,
});

/** keycloak-connect's Token as its source has it (its typings leave out `token` and `content`). */
type DecodedToken = Keycloak.Token & { token: string; content: Record<string, unknown> };
type Grant = Omit<Keycloak.Grant, 'access_token' | 'refresh_token' | 'id_token'> & { access_token: DecodedToken; refresh_token?: DecodedToken; id_token?: DecodedToken };

beforeAll(async () => {
  ({ identity, h: secrets } = await startWithIdentity());
  userId = (await identity.cli<{ id: string }>('users', 'create', 'erin', '--password', PASSWORD, '--email', 'erin@example.com')).id;
  app = await listenOnFreePort();
  // A client created with default settings (RS256, PKCE optional for a confidential client).
  client = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--consent-required',
    '--name',
    'node app',
    '--grants',
    'client_credentials,authorization_code,refresh_token',
    '--scopes',
    'secrets:read,secrets:write,openid,profile,email',
    '--redirect-uri',
    `${app.url}/protected?auth_callback=1`,
  );

  const memoryStore = new session.MemoryStore();
  keycloak = new Keycloak({ store: memoryStore }, adapterConfig());
  bearerOnly = new Keycloak({}, adapterConfig({ 'bearer-only': true }));

  const web = express();
  web.use(session({ secret: 'e2e only', resave: false, saveUninitialized: true, store: memoryStore }));
  web.use(keycloak.middleware());
  web.get('/protected', keycloak.protect(), (req, res) => {
    const grant = (req as unknown as { kauth: { grant: Grant } }).kauth.grant;
    res.json({ sub: grant.access_token.content['sub'], idToken: grant.id_token?.content, accessToken: grant.access_token.token });
  });
  const api = express.Router();
  api.use(bearerOnly.middleware());
  api.get('/api/hello', bearerOnly.protect(), (req, res) => {
    res.json({ client: (req as unknown as { kauth: { grant: Grant } }).kauth.grant.access_token.content['azp'] });
  });
  web.use(api);
  app.server.on('request', web);
});

afterAll(async () => {
  app?.server.closeAllConnections();
  app?.server.close();
  await secrets?.close();
  await identity?.close();
});

describe('keycloak-connect against Hush identity', () => {
  it("obtainFromClientCredentials() with no scope (it sends scope=openid): the client's default scopes, a token it validates and the secrets API takes", async () => {
    const grant = (await keycloak.grantManager.obtainFromClientCredentials()) as Grant;
    const content = grant.access_token.content;
    expect(content).toMatchObject({ typ: 'Bearer', iss: identity.issuer, azp: client.client_id, aud: secrets.config.API_AUDIENCE, realm_access: { roles: [] } });
    expect(String(content['scope']).split(' ')).toEqual(expect.arrayContaining(['secrets:read', 'secrets:write']));
    // Its refresh token (the client may refresh client-credentials tokens) decodes as Keycloak's.
    expect(grant.refresh_token?.content).toMatchObject({ typ: 'Refresh', exp: expect.any(Number) });

    const share = await secrets.http.post('/api/v1/share').set('Authorization', `Bearer ${grant.access_token.token}`).type('form').send({ secret: 'from keycloak-connect' });
    expect(share.status).toBe(200);

    // validateAccessToken asks the introspection endpoint: active until the token is revoked.
    expect(await keycloak.grantManager.validateAccessToken(grant.access_token.token)).toBe(grant.access_token.token);
    const revoke = await fetch(`${identity.issuer}/protocol/openid-connect/revoke`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
      body: new URLSearchParams({ token: grant.access_token.token }),
    });
    expect(revoke.status).toBe(200);
    expect(await keycloak.grantManager.validateAccessToken(grant.access_token.token)).toBe(false);
  });

  it('protect() in bearer-only mode lets a valid access token through and refuses the rest', async () => {
    const grant = (await keycloak.grantManager.obtainFromClientCredentials()) as Grant;
    const ok = await fetch(`${app.url}/api/hello`, { headers: { authorization: `Bearer ${grant.access_token.token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ client: client.client_id });

    const [header, payload] = grant.access_token.token.split('.');
    expect((await fetch(`${app.url}/api/hello`, { headers: { authorization: `Bearer ${header}.${payload}.AAAA` } })).status).toBe(403);
    expect((await fetch(`${app.url}/api/hello`)).status).toBe(403);
  });

  it('web login (confidential client, no PKCE), then validateAccessToken, userInfo and ensureFreshness on its grant', async () => {
    // The application sends the browser to identity's login page...
    const appBrowser = new Browser(app.url);
    const toLogin = await appBrowser.navigate(`${app.url}/protected`);
    const login = new URL(toLogin.leftTo as string);
    expect(login.origin + login.pathname).toBe(`${identity.issuer}/protocol/openid-connect/auth`);
    expect(login.searchParams.get('code_challenge')).toBeNull();

    // ...the user signs in and consents, and identity sends the browser back with a code...
    const idp = new Browser(login.origin);
    const loginPage = await idp.navigate(login.toString());
    const consent = await idp.submit(loginPage.html, 0, { username: 'erin', password: PASSWORD });
    const back = await idp.submit(consent.html, 0, {});
    expect(back.leftTo).toContain(`${app.url}/protected?auth_callback=1`);

    // ...which keycloak-connect exchanges (HTTP Basic plus client_id in the body), validates and keeps.
    const page = await appBrowser.navigate(back.leftTo as string);
    expect(page.res.status).toBe(200);
    const seen = JSON.parse(page.html) as { sub: string; idToken: Record<string, unknown>; accessToken: string };
    expect(seen.sub).toBe(userId);
    expect(seen.idToken).toMatchObject({ typ: 'ID', azp: client.client_id, aud: client.client_id });

    // Its session's grant, as keycloak-connect stored it.
    const grant = (await keycloak.grantManager.createGrant(
      JSON.stringify({ access_token: seen.accessToken, refresh_token: await sessionRefreshToken(appBrowser), token_type: 'Bearer' }),
    )) as Grant;

    // Live validation: introspection with the client's credentials in Basic and in the body at once.
    expect(await keycloak.grantManager.validateAccessToken(grant.access_token)).toBe(grant.access_token);
    expect(await keycloak.grantManager.validateAccessToken('not-a-token')).toBe(false);

    const info = await keycloak.grantManager.userInfo<Keycloak.Token, Record<string, unknown>>(grant.access_token);
    expect(info).toMatchObject({ sub: userId });

    // ensureFreshness refreshes a grant whose access token has expired (its `exp` set back here;
    // the refresh token's own `exp` is read from the refresh token, a JWT).
    grant.access_token.content['exp'] = Math.floor(Date.now() / 1000) - 1;
    const oldRefresh = grant.refresh_token?.token as string;
    const fresh = (await keycloak.grantManager.ensureFreshness(grant)) as Grant;
    expect(fresh.access_token.token).not.toBe(seen.accessToken);
    expect(fresh.access_token.isExpired()).toBe(false);
    expect(fresh.refresh_token?.token).not.toBe(oldRefresh);
    expect(await keycloak.grantManager.validateAccessToken(fresh.access_token)).toBe(fresh.access_token);
  });
});

/** The refresh token keycloak-connect keeps in the session store, read back through a fresh login's cookie. */
async function sessionRefreshToken(appBrowser: Browser): Promise<string> {
  const sid = decodeURIComponent(appBrowser.cookie('connect.sid') as string)
    .replace(/^s:/, '')
    .replace(/\..*$/, '');
  const store = (keycloak as unknown as { stores: { store: session.Store }[] }).stores[1]?.store as session.Store;
  const stored = await new Promise<Record<string, unknown> | null | undefined>((resolve, reject) =>
    store.get(sid, (err: unknown, s) => (err ? reject(err instanceof Error ? err : new Error('session store failed')) : resolve(s as never))),
  );
  const raw = stored?.['keycloak-token'];
  return (JSON.parse(String(raw)) as { refresh_token: string }).refresh_token;
}

import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import pg from 'pg';
import { postForm } from '@hush/testing';
import { authorizationUrl, authorize as authorizeAs, clientConfig, signIn } from './flows.js';
import { createApiAndClient, type Harness, refreshGrant, startIdentity } from './harness.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const PASSWORD = 'correct horse battery staple';

let h: Harness;
let tokenUrl: string;
beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  await h.cli('users', 'create', 'carol', '--password', PASSWORD);
});
afterAll(() => h.close());

/** Every row of every table of identity's database, as text: what a copy of the database holds. */
async function dumpDatabase(): Promise<string> {
  const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows: tables } = await db.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const parts: string[] = [];
    for (const { name } of tables) {
      const { rows } = await db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      parts.push(...rows.map((r) => r.row));
    }
    return parts.join('\n');
  } finally {
    await db.end();
  }
}

/** Logs carol in through the real pages; returns the code sent to the client and the browser holding the session. */
const authorize = (config: oidc.Configuration, scope: string) => authorizeAs(config, { redirectUri: REDIRECT, scope, username: 'carol', password: PASSWORD });

describe('what a copy of the database yields', () => {
  it('holds no live refresh token, authorization code or session cookie value', async () => {
    const secrets: Record<string, string> = {};

    const service = await createApiAndClient(h);
    const cc = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: service.read, client_id: service.clientId, client_secret: service.clientSecret });
    secrets['client-credentials refresh token'] = String(cc.body['refresh_token']);

    const app = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
    const config = await clientConfig(h.issuer, app.clientId, app.clientSecret);
    const redeemed = await authorize(config, `openid ${app.read}`);
    const tokens = await oidc.authorizationCodeGrant(config, redeemed.callback, { pkceCodeVerifier: redeemed.verifier, expectedState: redeemed.state });
    secrets['rotated refresh token'] = tokens.refresh_token as string;
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    secrets['refresh token'] = rotated.refresh_token as string;
    secrets['redeemed authorization code'] = redeemed.callback.searchParams.get('code') as string;
    secrets['session cookie'] = redeemed.browser.cookie('_session') as string;

    // A code not yet redeemed and its user's session, as they are between the redirect and the token request.
    const pending = await authorize(config, `openid ${app.read}`);
    secrets['live authorization code'] = pending.callback.searchParams.get('code') as string;
    secrets['second session cookie'] = pending.browser.cookie('_session') as string;

    // An OpenID-only access token (for userinfo) is opaque and stored, too.
    const openidOnly = await authorize(config, 'openid');
    const userinfoTokens = await oidc.authorizationCodeGrant(config, openidOnly.callback, { pkceCodeVerifier: openidOnly.verifier, expectedState: openidOnly.state });
    secrets['opaque access token'] = userinfoTokens.access_token;

    // A user signed in and looking at the consent page (for a scope not allowed yet): the interaction records the session.
    const { url: stalledUrl } = await authorizationUrl(config, REDIRECT, `openid ${app.write}`);
    const { browser: stalled, consent: stalledConsent } = await signIn(stalledUrl, 'carol', PASSWORD);
    expect(stalledConsent.html).toContain('Allow');
    secrets['session cookie during consent'] = stalled.cookie('_session') as string;

    // Tokens travel in JWT envelopes; the stored token's id inside one (its jti) is a credential too.
    for (const name of ['refresh token', 'rotated refresh token', 'opaque access token', 'client-credentials refresh token']) {
      secrets[`${name} id`] = decodeJwt(secrets[name] as string).jti as string;
    }
    for (const [name, value] of Object.entries(secrets)) expect([name, typeof value === 'string' && value.length >= 20]).toEqual([name, true]);

    const dump = await dumpDatabase();
    expect(dump).toContain(service.clientId); // the dump is real
    const found = Object.entries(secrets)
      .filter(([, value]) => dump.includes(value))
      .map(([name]) => name);
    expect(found).toEqual([]);

    // And all of them still work from what is stored.
    const again = await oidc.refreshTokenGrant(config, rotated.refresh_token as string);
    expect(again.access_token).toBeDefined();
    const exchanged = await oidc.authorizationCodeGrant(config, pending.callback, { pkceCodeVerifier: pending.verifier, expectedState: pending.state });
    expect(exchanged.refresh_token).toBeDefined();
    const refreshedService = await refreshGrant(tokenUrl, service, secrets['client-credentials refresh token']);
    expect(refreshedService.status).toBe(200);
    const info = await oidc.fetchUserInfo(config, userinfoTokens.access_token, oidc.skipSubjectCheck);
    expect(info.sub).toEqual(expect.any(String));
    // The session found by its cookie: a new authorization needs no login page.
    const { url } = await authorizationUrl(config, REDIRECT, `openid ${app.read}`);
    const silent = await pending.browser.navigate(url.toString());
    expect(silent.leftTo).toContain('code=');
  });
});

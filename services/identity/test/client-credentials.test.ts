import * as oidc from 'openid-client';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import request from 'supertest';
import { postForm } from '@hush/testing';
import { basic, createApiAndClient, startIdentity, type Harness } from './harness.js';

let h: Harness;
let tokenUrl: string;

beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  await h.cli('orgs', 'create', 'ops-team');
});
afterAll(() => h.close());

describe('client credentials grant (docs/api.md)', () => {
  it('returns a JWT access token for the API and a refresh token, with the form body of the spec', async () => {
    const c = await createApiAndClient(h, { org: 'ops-team' });
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });

    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', scope: c.read, expires_in: 300 });
    expect(typeof res.body['access_token']).toBe('string');
    expect(typeof res.body['refresh_token']).toBe('string');

    const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
    const { payload, protectedHeader } = await jwtVerify(String(res.body['access_token']), jwks, {
      issuer: h.issuer,
      audience: c.api,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({ client_id: c.clientId, sub: c.clientId, scope: c.read, organization: 'ops-team' });
    expect(typeof payload.exp).toBe('number');
    expect(typeof payload['organization_id']).toBe('string');
  });

  it('accepts HTTP Basic client authentication as well', async () => {
    const c = await createApiAndClient(h);
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: `${c.read} ${c.write}` }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(res.status).toBe(200);
    expect(res.body['scope']).toBe(`${c.read} ${c.write}`);
    expect(res.body['refresh_token']).toBeDefined();
  });

  it('gives no refresh token to a client without the refresh_token grant', async () => {
    const c = await createApiAndClient(h, { grants: 'client_credentials' });
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    expect(res.status).toBe(200);
    expect(res.body['refresh_token']).toBeUndefined();
  });

  it('exchanges, introspects and revokes the refresh token through a real OAuth client (openid-client)', async () => {
    const c = await createApiAndClient(h, { org: 'ops-team' });
    const config = await oidc.discovery(new URL(h.issuer), c.clientId, c.clientSecret, oidc.ClientSecretPost(c.clientSecret), { execute: [oidc.allowInsecureRequests] });
    const first = await oidc.clientCredentialsGrant(config, { scope: c.read });
    expect(first.refresh_token).toBeDefined();

    const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token as string);
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.refresh_token).toBeDefined();
    const jwks = createRemoteJWKSet(new URL(`${h.issuer}/protocol/openid-connect/certs`));
    const { payload } = await jwtVerify(refreshed.access_token, jwks, { issuer: h.issuer, audience: c.api, typ: 'at+jwt' });
    expect(payload).toMatchObject({ sub: c.clientId, client_id: c.clientId, scope: c.read, organization: 'ops-team' });

    const active = await oidc.tokenIntrospection(config, refreshed.refresh_token as string);
    expect(active).toMatchObject({ active: true, client_id: c.clientId, sub: c.clientId, scope: c.read });

    await oidc.tokenRevocation(config, refreshed.refresh_token as string);
    const inactive = await oidc.tokenIntrospection(config, refreshed.refresh_token as string);
    expect(inactive.active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['the realm default, RS256', [], 'RS256'],
    ["the client's own choice, ES256", ['--signing-alg', 'ES256'], 'ES256'],
  ])('signs with a published key of %s', async (_name, extraArgs, alg) => {
    const c = await createApiAndClient(h, { extraArgs });
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    const jwks = (await request(h.issuer).get('/protocol/openid-connect/certs')).body as { keys: { kid: string; alg: string; d?: string }[] };
    const header = decodeProtectedHeader(String(res.body['access_token']));
    expect(header.alg).toBe(alg);
    expect(jwks.keys.find((k) => k.kid === header.kid)?.alg).toBe(alg);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });
});

describe('token endpoint errors (RFC 6749 §5.2)', () => {
  let c: Awaited<ReturnType<typeof createApiAndClient>>;
  beforeAll(async () => {
    c = await createApiAndClient(h, { scopes: undefined });
  });

  it('wrong client secret: 401 invalid_client', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body['error']).toBe('invalid_client');
    expect(typeof res.body['error_description']).toBe('string');
  });

  it('unknown client: 401 invalid_client', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: 'no-such-client', client_secret: 'x' });
    expect(res.status).toBe(401);
    expect(res.body['error']).toBe('invalid_client');
  });

  it('unknown grant type: 400 unsupported_grant_type', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'password', username: 'a', password: 'b', client_id: c.clientId, client_secret: c.clientSecret });
    expect(res.status).toBe(400);
    expect(res.body['error']).toBe('unsupported_grant_type');
  });

  it('scope outside the client allowance: 400 invalid_scope', async () => {
    const other = await createApiAndClient(h);
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: other.read, client_id: c.clientId, client_secret: c.clientSecret });
    expect(res.status).toBe(400);
    expect(res.body['error']).toBe('invalid_scope');
  });

  it('unknown scope: 400 invalid_scope', async () => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: 'nobody:has-this', client_id: c.clientId, client_secret: c.clientSecret });
    expect(res.status).toBe(400);
    expect(res.body['error']).toBe('invalid_scope');
  });

  it("no scope, or only openid: the client's default scopes (all of its API scopes), as Keycloak", async () => {
    for (const scope of [undefined, 'openid']) {
      const res = await postForm(tokenUrl, { grant_type: 'client_credentials', ...(scope ? { scope } : {}), client_id: c.clientId, client_secret: c.clientSecret });
      expect(res.status).toBe(200);
      expect(res.body['scope']).toBe(`${c.read} ${c.write}`);
      expect(decodeJwt(String(res.body['access_token']))).toMatchObject({ aud: c.api, scope: `${c.read} ${c.write}` });
    }
  });

  it("no scope from a client whose scopes belong to two APIs: 400 invalid_target (it must name one API's)", async () => {
    const other = await createApiAndClient(h);
    const both = await h.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      'two apis',
      '--grants',
      'client_credentials',
      '--scopes',
      `${c.read},${other.read}`,
    );
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: both.client_id, client_secret: both.client_secret });
    expect(res.status).toBe(400);
    expect(res.body['error']).toBe('invalid_target');
  });

  it.each([
    ['a JSON body', 'application/json', '{"grant_type":"client_credentials"}'],
    ['a garbled form', 'application/x-www-form-urlencoded', '%%%&&&=='],
    ['no grant_type', 'application/x-www-form-urlencoded', 'scope=x'],
    ['an empty body', 'application/x-www-form-urlencoded', ''],
  ])('malformed request (%s): 400 with an OAuth error, never a 500', async (_name, type, body) => {
    const res = await request(tokenUrl).post('').set('content-type', type).send(body);
    expect(res.status).toBe(400);
    const json = res.body as Record<string, unknown>;
    expect(json['error']).toEqual(expect.any(String));
    expect(JSON.stringify(json)).not.toMatch(/at .*\.js/);
  });

  it('the same client credentials sent twice (Basic and body, as keycloak-connect does): accepted, as Keycloak', async () => {
    const res = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret },
      { authorization: basic(c.clientId, c.clientSecret) },
    );
    expect(res.status).toBe(200);
  });

  it.each([
    ['another secret in the body', (id: string) => ({ client_id: id, client_secret: 'not-the-secret' })],
    ['another client id in the body', () => ({ client_id: 'someone-else', client_secret: c.clientSecret })],
  ])('client credentials sent twice that differ (%s): 401 invalid_client', async (_name, body) => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, ...body(c.clientId) }, { authorization: basic(c.clientId, c.clientSecret) });
    expect(res.status).toBe(401);
    expect(res.body['error']).toBe('invalid_client');
  });

  it('a grant type the client may not use: 400 unauthorized_client (RFC 6749 §5.2)', async () => {
    const res = await postForm(tokenUrl, {
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: 'https://a.example/cb',
      client_id: c.clientId,
      client_secret: c.clientSecret,
    });
    expect(res.status).toBe(400);
    expect(res.body['error']).toBe('unauthorized_client');
  });

  it('token responses say Pragma: no-cache besides Cache-Control: no-store', async () => {
    const ok = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    const failed = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: 'nobody:has-this', client_id: c.clientId, client_secret: c.clientSecret });
    for (const res of [ok, failed]) {
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers['pragma']).toBe('no-cache');
    }
  });
});

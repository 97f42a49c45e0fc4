import { SignJWT, generateKeyPair } from 'jose';
import { postForm } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { basic, bearer, expectSecretObject, type Harness } from './harness.js';
import { clientToken, startWithIdentity, userToken } from './identity.js';

let identity: IdentityHarness;
let h: Harness;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  ({ identity, h } = await startWithIdentity());
  await identity.cli('orgs', 'create', 'ops');
  await identity.cli('users', 'create', 'alice', '--password', PASSWORD, '--org', 'ops');
});
afterAll(async () => {
  await h.close();
  await identity.close();
});

describe('Bearer access tokens from identity (client credentials)', () => {
  it('share, read, metadata, burn and recent work with a token carrying both scopes; custid is the client_id', async () => {
    const { clientId, accessToken } = await clientToken(identity, 'secrets:read secrets:write', { org: 'ops' });
    const auth = bearer(accessToken);
    const created = await h.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'via bearer' });
    expect(created.status).toBe(200);
    expectSecretObject(created.body);
    expect(created.body.custid).toBe(clientId);

    const meta = await h.http.post(`/api/v1/private/${created.body.metadata_key}`).set('Authorization', auth);
    expect(meta.body).toMatchObject({ custid: clientId, state: 'new' });
    const recent = await h.http.get('/api/v1/private/recent').set('Authorization', auth);
    expect(recent.body).toHaveLength(1);
    const burned = await h.http.post(`/api/v1/private/${created.body.metadata_key}/burn`).set('Authorization', auth);
    expect(burned.body.status).toBe('burned');

    const generated = await h.http.post('/api/v1/generate').set('Authorization', auth);
    expect(generated.status).toBe(200);
    expect((await h.http.post(`/api/v1/secret/${generated.body.secret_key}`)).body.value).toBe(generated.body.value);
  });

  it('secrets:read alone: recent and metadata yes; share, generate and burn are 403 insufficient_scope', async () => {
    const writer = await clientToken(identity, 'secrets:write');
    const reader = await clientToken(identity, 'secrets:read');
    const created = await h.http.post('/api/v1/share').set('Authorization', bearer(writer.accessToken)).send({ secret: 'x' });
    expect(created.status).toBe(200);

    for (const req of [
      h.http.post('/api/v1/share').set('Authorization', bearer(reader.accessToken)).send({ secret: 'x' }),
      h.http.post('/api/v1/generate').set('Authorization', bearer(reader.accessToken)),
      h.http.post(`/api/v1/private/${created.body.metadata_key}/burn`).set('Authorization', bearer(reader.accessToken)),
    ]) {
      const res = await req;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'insufficient_scope', message: 'Forbidden: this operation needs the scope secrets:write' });
      expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    }
    expect((await h.http.get('/api/v1/private/recent').set('Authorization', bearer(reader.accessToken))).status).toBe(200);
  });

  it('secrets:write alone: recent and metadata are 403', async () => {
    const writer = await clientToken(identity, 'secrets:write');
    const created = await h.http.post('/api/v1/share').set('Authorization', bearer(writer.accessToken)).send({ secret: 'x' });
    const recent = await h.http.get('/api/v1/private/recent').set('Authorization', bearer(writer.accessToken));
    expect(recent.status).toBe(403);
    expect(recent.body.message).toMatch(/secrets:read/);
    expect((await h.http.post(`/api/v1/private/${created.body.metadata_key}`).set('Authorization', bearer(writer.accessToken))).status).toBe(403);
  });

  it('refuses tampered, foreign-signed, unsigned and alg:none tokens: 401 invalid_token (claims: see access-tokens.test.ts)', async () => {
    const { accessToken } = await clientToken(identity, 'secrets:write');
    const [header, payload] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const { privateKey } = await generateKeyPair('ES256');
    const kid = JSON.parse(Buffer.from(header, 'base64url').toString()).kid;
    const forge = (overrides: Record<string, unknown>, typ = 'at+jwt') => new SignJWT({ ...claims, ...overrides }).setProtectedHeader({ alg: 'ES256', typ, kid }).sign(privateKey);

    const bad = [
      `${accessToken.slice(0, -4)}AAAA`, // tampered signature
      await forge({}), // signed by someone else under identity's kid
      `${header}.${Buffer.from(JSON.stringify({ ...claims, scope: 'secrets:write secrets:read' })).toString('base64url')}.`, // unsigned
      'eyJhbGciOiJub25lIiwidHlwIjoiYXQrand0In0.' + Buffer.from(JSON.stringify(claims)).toString('base64url') + '.', // alg none
    ];
    for (const token of bad) {
      const res = await h.http.post('/api/v1/share').set('Authorization', bearer(token)).send({ secret: 'x' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
    }
  });

  it('refuses a token of identity for another API (audience)', async () => {
    await identity.cli('apis', 'create', 'https://other.example.com', '--scopes', 'other:read');
    const client = await identity.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      'other',
      '--grants',
      'client_credentials',
      '--scopes',
      'other:read',
    );
    const res = await postForm(`${identity.issuer}/protocol/openid-connect/token`, {
      grant_type: 'client_credentials',
      scope: 'other:read',
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const token = String(res.body['access_token']);
    const recent = await h.http.get('/api/v1/private/recent').set('Authorization', bearer(token));
    expect(recent.status).toBe(401);
    expect(recent.body.code).toBe('invalid_token');
  });
});

describe('user access tokens (authorization code) and API tokens minted with them', () => {
  it('a user token acts as the user (custid = username), and mints an API token usable with Basic, revocable', async () => {
    const access = await userToken(identity, 'alice', PASSWORD, 'secrets:read secrets:write');
    const shared = await h.http.post('/api/v1/share').set('Authorization', bearer(access)).send({ secret: 'from alice' });
    expect(shared.body.custid).toBe('alice');

    const minted = await h.http.post('/api/v1/account/api-token').set('Authorization', bearer(access)).send({ label: 'laptop' });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ custid: 'alice', label: 'laptop', api_token: expect.stringMatching(/^hush_/) });

    const viaBasic = await h.http.get('/api/v1/private/recent').set('Authorization', basic('alice', minted.body.api_token));
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body[0].custid).toBe('alice');

    const list = await h.http.get('/api/v1/account/api-tokens').set('Authorization', bearer(access));
    expect(list.body).toEqual([expect.objectContaining({ id: minted.body.id, label: 'laptop', revoked: false })]);
    expect(JSON.stringify(list.body)).not.toContain(minted.body.api_token);

    const revoked = await h.http.delete(`/api/v1/account/api-token/${minted.body.id}`).set('Authorization', bearer(access));
    expect(revoked.body).toEqual({ id: minted.body.id, revoked: true });
    const after = await h.http.get('/api/v1/private/recent').set('Authorization', basic('alice', minted.body.api_token));
    expect(after.status).toBe(401);
    expect((await h.http.delete(`/api/v1/account/api-token/${minted.body.id}`).set('Authorization', bearer(access))).status).toBe(404);
  });

  it('client-credentials tokens and API tokens cannot mint API tokens (403 user_token_required)', async () => {
    const { accessToken } = await clientToken(identity, 'secrets:read secrets:write');
    const res = await h.http.post('/api/v1/account/api-token').set('Authorization', bearer(accessToken));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('user_token_required');
    const account = await h.account();
    const viaBasic = await h.http.post('/api/v1/account/api-token').set('Authorization', account.auth);
    expect(viaBasic.status).toBe(403);
  });

  it('a user token with one scope cannot mint (the API token would grant both)', async () => {
    const access = await userToken(identity, 'alice', PASSWORD, 'secrets:write');
    const res = await h.http.post('/api/v1/account/api-token').set('Authorization', bearer(access));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
  });
});

describe('Basic API tokens minted by the CLI', () => {
  it('work until revoked by the CLI', async () => {
    const account = await h.account();
    expect((await h.http.post('/api/v1/share').set('Authorization', account.auth).send({ secret: 'x' })).status).toBe(200);
    const [token] = await h.cli<{ id: string }[]>('tokens', 'list', account.custid);
    await h.cli('tokens', 'revoke', (token as { id: string }).id);
    const res = await h.http.post('/api/v1/share').set('Authorization', account.auth).send({ secret: 'x' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });
});

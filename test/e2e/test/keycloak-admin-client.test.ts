import { randomBytes } from 'node:crypto';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import * as oidc from 'openid-client';
import { postForm } from '@hush/testing';
import { basic, startIdentity, type Harness } from '../../../services/identity/test/harness.js';
import { authorize, clientConfig, signIn, authorizationUrl } from '../../../services/identity/test/flows.js';

// Keycloak's own admin library (its npm package, unchanged, default settings) against a running
// identity service: authenticated as the bootstrap admin client (client credentials), it
// provisions clients, users, roles and organizations; a token without realm-admin gets 403s and
// no token 401s.

let h: Harness;
let tokenUrl: string;
let adminSecret: string;
const suffix = randomBytes(3).toString('hex');
/** Every client secret and password this file uses: none may appear in a log line. */
const sensitive: string[] = [];

const adminClient = async (clientId: string, clientSecret: string) => {
  const kc = new KcAdminClient({ baseUrl: `${h.url}/auth`, realmName: 'public' });
  await kc.auth({ grantType: 'client_credentials', clientId, clientSecret });
  return kc;
};

const clientCredentials = (clientId: string, secret: string, how: 'basic' | 'form') =>
  how === 'basic'
    ? postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basic(clientId, secret) })
    : postForm(tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });

/** The status a library call failed with (the library throws a NetworkError carrying the response). */
const statusOf = async (call: () => Promise<unknown>) => {
  try {
    await call();
    return 200;
  } catch (err) {
    return (err as { response?: { status: number } }).response?.status ?? -1;
  }
};

beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  const boot = await h.cli<{ admin_client: { client_id: string; client_secret: string } }>('bootstrap', '--secrets-audience', `https://secrets-${suffix}.example.com/api/v1`);
  adminSecret = boot.admin_client.client_secret;
  sensitive.push(adminSecret);
}, 60_000);
afterAll(() => h?.close());

describe('Keycloak’s admin client library as the bootstrap admin client', () => {
  it('creates clients with and without a given secret, finds, updates, rotates, reads back and deletes them; old secrets are refused at once', async () => {
    const kc = await adminClient('hush-admin', adminSecret);
    const given = `given-${randomBytes(24).toString('hex')}`;
    sensitive.push(given);

    const { id: generatedId } = await kc.clients.create({ clientId: `svc-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false });
    const { id: givenId } = await kc.clients.create({
      clientId: `web-${suffix}`,
      secret: given,
      serviceAccountsEnabled: true,
      standardFlowEnabled: true,
      redirectUris: ['https://app.example.com/cb'],
    });
    expect(generatedId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await clientCredentials(`web-${suffix}`, given, 'basic')).status).toBe(200);

    const found = await kc.clients.find({ clientId: `web-${suffix}` });
    expect(found.map((c) => c.id)).toEqual([givenId]);
    expect(found[0]).toMatchObject({ clientId: `web-${suffix}`, publicClient: false, serviceAccountsEnabled: true, standardFlowEnabled: true, protocol: 'openid-connect' });
    expect(found[0]).not.toHaveProperty('secret');
    expect(await kc.clients.find({ clientId: `nobody-${suffix}` })).toEqual([]);

    await kc.clients.update({ id: givenId }, { redirectUris: ['https://app.example.com/cb', 'https://app.example.com/cb2'] });
    const updated = await kc.clients.findOne({ id: givenId });
    expect(updated?.redirectUris).toEqual(['https://app.example.com/cb', 'https://app.example.com/cb2']);
    expect(updated?.serviceAccountsEnabled).toBe(true); // PUT merged: the flags it left out stayed

    const generated = await kc.clients.getClientSecret({ id: generatedId });
    sensitive.push(generated.value as string);
    expect((await clientCredentials(`svc-${suffix}`, generated.value as string, 'form')).status).toBe(200);

    const rotated = await kc.clients.generateNewClientSecret({ id: givenId });
    sensitive.push(rotated.value as string);
    expect(rotated.type).toBe('secret');
    expect((await kc.clients.getClientSecret({ id: givenId })).value).toBe(rotated.value);
    expect((await clientCredentials(`web-${suffix}`, rotated.value as string, 'basic')).status).toBe(200);
    expect((await clientCredentials(`web-${suffix}`, rotated.value as string, 'form')).status).toBe(200);
    expect((await clientCredentials(`web-${suffix}`, given, 'basic')).status).toBe(401);
    expect((await clientCredentials(`web-${suffix}`, given, 'form')).status).toBe(401);

    await kc.clients.del({ id: givenId });
    expect((await clientCredentials(`web-${suffix}`, rotated.value as string, 'basic')).status).toBe(401);
    expect(await kc.clients.findOne({ id: givenId })).toBeNull();
  });

  it('creates a user with a password, finds it exactly, resets its password, maps a realm role, disables it (sign-in and refresh refused) and deletes it', async () => {
    const kc = await adminClient('hush-admin', adminSecret);
    const first = `first-${randomBytes(8).toString('hex')}`;
    const second = `second-${randomBytes(8).toString('hex')}`;
    sensitive.push(first, second);
    const username = `erin-${suffix}`;
    const { id } = await kc.users.create({ username, email: `erin-${suffix}@example.com`, enabled: true, credentials: [{ type: 'password', value: first, temporary: false }] });
    await kc.users.create({ username: `${username}-other`, enabled: true });

    expect((await kc.users.find({ username, exact: true })).map((u) => u.id)).toEqual([id]);
    expect((await kc.users.find({ username })).length).toBe(2);
    expect(await kc.users.find({ username: `nobody-${suffix}`, exact: true })).toEqual([]);
    expect(await kc.users.count({ search: username })).toBe(2);

    await kc.users.resetPassword({ id, credential: { type: 'password', value: second, temporary: false } });

    await kc.roles.create({ name: `auditor-${suffix}` });
    const role = await kc.roles.findOneByName({ name: `auditor-${suffix}` });
    await expect(kc.users.addRealmRoleMappings({ id, roles: [{ id: role!.id!, name: 'someone-else' }] })).rejects.toMatchObject({ response: { status: 404 } });
    await kc.users.addRealmRoleMappings({ id, roles: [{ id: role!.id!, name: role!.name! }] });
    expect((await kc.users.listRealmRoleMappings({ id })).map((r) => r.name)).toEqual([`auditor-${suffix}`]);

    // Sign in (authorization code) with the new password, holding a refresh token.
    const { client_id, client_secret } = await h.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      'app',
      '--grants',
      'authorization_code,refresh_token',
      '--scopes',
      'openid',
      '--redirect-uri',
      'https://app.example.com/cb',
    );
    sensitive.push(client_secret);
    const config = await clientConfig(h.issuer, client_id, client_secret);
    const { callback, verifier, state } = await authorize(config, { redirectUri: 'https://app.example.com/cb', scope: 'openid', username, password: second });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeDefined();

    await kc.users.update({ id }, { enabled: false });
    expect((await kc.users.findOne({ id }))?.enabled).toBe(false);
    const refresh = await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id, client_secret });
    expect(refresh.status).toBe(400);
    expect(refresh.body).toMatchObject({ error: 'invalid_grant' });
    const { consent } = await signIn((await authorizationUrl(config, 'https://app.example.com/cb', 'openid')).url, username, second);
    expect(consent.html).toContain('Invalid username or password');

    await kc.users.del({ id });
    expect(await kc.users.findOne({ id })).toBeNull();
  });

  it('creates an organization, adds a member and lists members', async () => {
    const kc = await adminClient('hush-admin', adminSecret);
    const { id: userId } = await kc.users.create({ username: `member-${suffix}`, enabled: true });
    const { id: orgId } = await kc.organizations.create({ name: `Acme ${suffix}`, alias: `acme-${suffix}`, domains: [{ name: `acme-${suffix}.example.com` }] });
    expect((await kc.organizations.find({ search: `acme-${suffix}` })).map((o) => o.id)).toEqual([orgId]);
    await kc.organizations.addMember({ orgId, userId });
    expect((await kc.organizations.listMembers({ orgId })).map((m) => m.username)).toEqual([`member-${suffix}`]);
  });
});

describe('roles granted through the API', () => {
  it('manage-clients granted to a client’s service account lets it create clients, and nothing else', async () => {
    const kc = await adminClient('hush-admin', adminSecret);
    const { id } = await kc.clients.create({ clientId: `ci-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false, defaultClientScopes: ['realm-management'] });
    const secret = (await kc.clients.getClientSecret({ id })).value as string;
    sensitive.push(secret);
    const account = await kc.clients.getServiceAccountUser({ id });
    const [management] = await kc.clients.find({ clientId: 'realm-management' });
    const manageClients = (await kc.clients.listRoles({ id: management!.id! })).find((r) => r.name === 'manage-clients')!;
    await kc.users.addClientRoleMappings({ id: account.id!, clientUniqueId: management!.id!, roles: [{ id: manageClients.id!, name: manageClients.name! }] });
    expect((await kc.users.listClientRoleMappings({ id: account.id!, clientUniqueId: management!.id! })).map((r) => r.name)).toEqual(['manage-clients']);

    const ci = await adminClient(`ci-${suffix}`, secret);
    expect((await ci.clients.create({ clientId: `made-by-ci-${suffix}`, serviceAccountsEnabled: true })).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await statusOf(() => ci.users.find({}))).toBe(403);
  });
});

describe('the audit trail of the above', () => {
  it('admin events for every change and user events for the logins, none carrying a secret or password', async () => {
    const kc = await adminClient('hush-admin', adminSecret);
    // Events are written in batches a fraction of a second apart.
    let admin: Awaited<ReturnType<typeof kc.realms.findAdminEvents>> = [];
    for (let i = 0; i < 20 && !admin.some((e) => e.resourceType === 'ORGANIZATION_MEMBERSHIP'); i++) {
      await new Promise((r) => setTimeout(r, 150));
      admin = await kc.realms.findAdminEvents({ realm: 'public', max: 1000 });
    }
    const seen = new Set(admin.map((e) => `${e.operationType} ${e.resourceType}`));
    for (const expected of [
      'CREATE CLIENT',
      'UPDATE CLIENT',
      'ACTION CLIENT',
      'DELETE CLIENT',
      'CREATE USER',
      'ACTION USER',
      'UPDATE USER',
      'DELETE USER',
      'CREATE REALM_ROLE',
      'CREATE REALM_ROLE_MAPPING',
      'CREATE ORGANIZATION',
      'CREATE ORGANIZATION_MEMBERSHIP',
    ]) {
      expect(seen).toContain(expected);
    }
    const created = admin.find((e) => e.operationType === 'CREATE' && e.resourceType === 'CLIENT' && e.authDetails?.clientId === 'hush-admin');
    expect(created?.resourcePath).toMatch(/^clients\/[0-9a-f-]{36}$/);
    expect(created?.authDetails).toMatchObject({ realmId: 'public', clientId: 'hush-admin' });
    expect(typeof created?.representation).toBe('string');

    const events = await kc.realms.findEvents({ realm: 'public', max: 1000 });
    const types = new Set(events.map((e) => e.type));
    for (const expected of ['CLIENT_LOGIN', 'CLIENT_LOGIN_ERROR', 'LOGIN', 'LOGIN_ERROR', 'CODE_TO_TOKEN', 'REFRESH_TOKEN_ERROR', 'UPDATE_PASSWORD']) {
      expect(types).toContain(expected);
    }
    expect(events.find((e) => e.type === 'LOGIN')).toMatchObject({ realmId: 'public', details: { username: `erin-${suffix}` } });
    expect((await kc.realms.findEvents({ realm: 'public', type: 'LOGIN_ERROR', max: 1000 })).every((e) => e.type === 'LOGIN_ERROR')).toBe(true);

    // Every stored event, as stored: no secret or password of this file.
    const stored = JSON.stringify([...admin, ...events]);
    for (const s of sensitive) expect(stored).not.toContain(s);
  });
});

describe('the same calls without realm-admin, and without a token', () => {
  it('a valid admin token without the roles gets 403 from every call', async () => {
    const weak = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'weak', '--grants', 'client_credentials', '--scopes', 'realm-management');
    sensitive.push(weak.client_secret);
    const kc = await adminClient(weak.client_id, weak.client_secret);
    const some = (await h.cli<{ id: string }[]>('users', 'list'))[0];
    for (const call of [
      () => kc.clients.find({ clientId: 'hush-admin' }),
      () => kc.clients.create({ clientId: `nope-${suffix}`, serviceAccountsEnabled: true }),
      () => kc.users.find({ username: 'x', exact: true }),
      () => kc.users.create({ username: `nope-${suffix}` }),
      () => kc.roles.create({ name: `nope-${suffix}` }),
      () => kc.organizations.create({ name: `nope-${suffix}`, alias: `nope-${suffix}` }),
      () => kc.users.resetPassword({ id: some?.id ?? '00000000-0000-4000-8000-000000000000', credential: { type: 'password', value: 'whatever-long', temporary: false } }),
    ]) {
      expect(await statusOf(call)).toBe(403);
    }
  });

  it('a valid token of the realm for another API is forbidden (403), as Keycloak answers it, not unauthorized', async () => {
    const reader = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'reader', '--grants', 'client_credentials', '--scopes', 'secrets:read');
    sensitive.push(reader.client_secret);
    const kc = await adminClient(reader.client_id, reader.client_secret);
    for (const call of [() => kc.clients.find({ clientId: 'hush-admin' }), () => kc.users.find({}), () => kc.users.create({ username: `nope-${suffix}` })]) {
      expect(await statusOf(call)).toBe(403);
    }
  });

  it('no token gets 401', async () => {
    const kc = new KcAdminClient({ baseUrl: `${h.url}/auth`, realmName: 'public' });
    for (const call of [() => kc.clients.find({ clientId: 'hush-admin' }), () => kc.users.create({ username: `nope-${suffix}` }), () => kc.organizations.find({})]) {
      expect(await statusOf(call)).toBe(401);
    }
  });

  it('no client secret or password this file used appears in any log line', () => {
    const logs = h.logs.join('\n');
    for (const s of sensitive) expect(logs).not.toContain(s);
  });
});

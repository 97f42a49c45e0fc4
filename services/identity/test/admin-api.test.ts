import { randomBytes } from 'node:crypto';
import ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { Redis } from 'ioredis';
import { postForm } from '@hush/testing';
import { personWithTotp } from './security/attack.js';
import { bootstrapAdmin, startIdentity, type Harness } from './harness.js';

/**
 * The admin REST API through HTTP: the first administrator's copy-paste call, Keycloak's HTTP
 * habits, the view-only and organization-confined administrators, and every answer checked against
 * the OpenAPI document generated from the route table.
 */

let h: Harness;
let tokenUrl: string;
let admin: string;
const sensitive: string[] = [];
const suffix = randomBytes(3).toString('hex');
const Ajv2020 = ajv2020.default;
const addFormats = ajvFormats.default;
let ajv: InstanceType<typeof Ajv2020>;
let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const checked = new Set<string>();

type Answer = { status: number; body: unknown; location: string | null };

/** An admin call; every answer with a JSON body is checked against the document. */
async function call(token: string | undefined, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${h.url}/auth/admin/realms/public${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const answer = { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, location: res.headers.get('location') };
  conforms(method.toLowerCase(), path, answer);
  return answer;
}

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function conforms(method: string, path: string, res: Answer): void {
  const bare = path.split('?')[0]!.replace(/\/$/, '');
  const template = Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare) && doc.paths[t]?.[method]);
  expect(template).toBeDefined();
  const responses = doc.paths[template!]![method]!.responses;
  expect(Object.keys(responses)).toContain(String(res.status));
  if (res.body === undefined) return;
  const validate = ajv.getSchema(`openapi.json#/${pointer('paths', template!, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`);
  if (!validate?.(res.body)) throw new Error(`${method} ${template} ${res.status} does not match the document: ${JSON.stringify(validate?.errors)}\n${JSON.stringify(res.body)}`);
  checked.add(`${method} ${template} ${res.status}`);
}

async function tokenOf(clientId: string, clientSecret: string): Promise<string> {
  const res = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  expect(res.status).toBe(200);
  return (res.body as { access_token: string }).access_token;
}

/** A client of the admin API holding `roles`, optionally in an organization. */
async function adminOf(roles: string, org?: string): Promise<string> {
  const c = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    `admin ${roles}`,
    '--grants',
    'client_credentials',
    '--scopes',
    'realm-management',
    ...(org ? ['--org', org] : []),
  );
  sensitive.push(c.client_secret);
  await h.cli('roles', 'grant', roles, '--client', c.client_id);
  return tokenOf(c.client_id, c.client_secret);
}

beforeAll(async () => {
  h = await startIdentity({ CLIENT_SECRET_READBACK: 'true' });
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  const boot = await h.cli<{ admin_client: { client_id: string; client_secret: string } }>('bootstrap', '--secrets-audience', `https://secrets-${suffix}.example.com/api/v1`);
  sensitive.push(boot.admin_client.client_secret);
  const res = await fetch(`${h.url}/auth/admin/realms/public/openapi.json`);
  doc = (await res.json()) as typeof doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  // The README's first admin call: a plain client-credentials request (no scope) as hush-admin.
  admin = await tokenOf('hush-admin', boot.admin_client.client_secret);
}, 60_000);
afterAll(() => h?.close());

describe('the admin REST API', () => {
  it('the bootstrap administrator lists clients, with and without a trailing slash', async () => {
    for (const path of ['/clients', '/clients/']) {
      const res = await call(admin, 'GET', path);
      expect(res.status).toBe(200);
      expect((res.body as { clientId: string }[]).map((c) => c.clientId)).toEqual(expect.arrayContaining(['hush-admin', 'hush-secrets-web']));
    }
  });

  it('keeps Keycloak’s habits: 201 + Location, 204, 409 errorMessage, 400, [] for no match, DELETE with {}', async () => {
    const rep = { clientId: `habits-${suffix}`, serviceAccountsEnabled: true };
    const created = await call(admin, 'POST', '/clients/', rep);
    expect(created.status).toBe(201);
    expect(created.body).toBeUndefined();
    expect(created.location).toMatch(new RegExp(`^${h.url}/auth/admin/realms/public/clients/[0-9a-f-]{36}$`));
    const id = created.location!.split('/').pop()!;
    expect(await call(admin, 'POST', '/clients', rep)).toMatchObject({ status: 409, body: { errorMessage: expect.any(String) } });
    expect(await call(admin, 'POST', '/clients', { clientId: `pw-${suffix}`, directAccessGrantsEnabled: true, serviceAccountsEnabled: true })).toMatchObject({
      status: 400,
      body: { errorMessage: expect.stringContaining('password grant') },
    });
    expect(await call(admin, 'POST', '/clients', '{not json')).toMatchObject({ status: 400 });
    expect((await call(admin, 'GET', `/clients?clientId=none-${suffix}`)).body).toEqual([]);
    expect((await call(admin, 'GET', `/clients?clientId=habits&search=true`)).body).toEqual([expect.objectContaining({ id })]);
    expect((await call(admin, 'PUT', `/clients/${id}`, { description: 'merged' })).status).toBe(204);
    expect((await call(admin, 'GET', `/clients/${id}`)).body).toMatchObject({ description: 'merged', serviceAccountsEnabled: true });
    const secret = await call(admin, 'GET', `/clients/${id}/client-secret`);
    sensitive.push((secret.body as { value: string }).value);
    expect((await call(admin, 'GET', `/clients/${id}/service-account-user`)).body).toMatchObject({ username: `service-account-habits-${suffix}` });
    expect((await call(admin, 'DELETE', `/clients/${id}`, {})).status).toBe(204);
    expect((await call(admin, 'GET', `/clients/${id}`)).status).toBe(404);
  });

  it('users: count, search, sessions, logout; organizations with members; roles; keys; client scopes', async () => {
    const password = `pw-${randomBytes(8).toString('hex')}`;
    sensitive.push(password);
    const user = await call(admin, 'POST', '/users', { username: `fay-${suffix}`, firstName: 'Fay', credentials: [{ type: 'password', value: password, temporary: false }] });
    const userId = user.location!.split('/').pop()!;
    expect((await call(admin, 'GET', `/users/count?search=fay-${suffix}`)).body).toBe(1);
    expect((await call(admin, 'GET', `/users?search=fay-${suffix}`)).body).toEqual([expect.objectContaining({ id: userId, firstName: 'Fay', enabled: true })]);
    expect(await call(admin, 'PUT', `/users/${userId}/reset-password`, { type: 'password', value: password, temporary: true })).toMatchObject({ status: 400 });
    expect((await call(admin, 'GET', `/users/${userId}/sessions`)).body).toEqual([]);
    expect((await call(admin, 'POST', `/users/${userId}/logout`, {})).status).toBe(204);

    const org = await call(admin, 'POST', '/organizations', { name: `Org ${suffix}`, alias: `org-${suffix}` });
    const orgId = org.location!.split('/').pop()!;
    expect((await call(admin, 'POST', `/organizations/${orgId}/members`, JSON.stringify(userId))).status).toBe(201);
    expect((await call(admin, 'POST', `/organizations/${orgId}/members`, userId)).status).toBe(409);
    expect((await call(admin, 'GET', `/organizations/${orgId}/members/count`)).body).toBe(1);
    expect((await call(admin, 'GET', `/organizations?search=org-${suffix}`)).body).toEqual([expect.objectContaining({ id: orgId, alias: `org-${suffix}` })]);

    const roles = (await call(admin, 'GET', '/roles')).body as { name: string }[];
    expect(roles.map((r) => r.name)).toContain('offline_access');
    const mappings = (await call(admin, 'GET', `/users/${userId}/role-mappings`)).body;
    expect(mappings).toEqual({});

    const keys = (await call(admin, 'GET', '/keys')).body as { keys: { algorithm: string; status: string }[] };
    expect(
      keys.keys
        .filter((k) => k.status === 'ACTIVE')
        .map((k) => k.algorithm)
        .sort(),
    ).toEqual(['ES256', 'RS256']);
    expect(
      (await call(admin, 'POST', '/client-scopes', { name: `reports-${suffix}`, attributes: { 'hush.api.identifier': `https://reports-${suffix}.example.com` } })).status,
    ).toBe(201);
    expect(((await call(admin, 'GET', '/client-scopes')).body as { name: string }[]).map((s) => s.name)).toContain(`reports-${suffix}`);
    expect(
      (await call(admin, 'POST', '/clients', { clientId: `reports-${suffix}`, serviceAccountsEnabled: true, defaultClientScopes: [`reports-${suffix}`, 'roles'] })).status,
    ).toBe(201);
  });

  it('a user who enrolled TOTP is reported with totp: true and otp among the credential types; one without, false', async () => {
    const redis = new Redis(h.config.REDIS_URL);
    try {
      const enrolled = await personWithTotp(h, redis);
      sensitive.push(enrolled.secret);
      expect((await call(admin, 'GET', `/users/${enrolled.id}`)).body).toMatchObject({ totp: true, disableableCredentialTypes: ['otp'] });
      expect((await call(admin, 'GET', `/users?username=${enrolled.username}&exact=true`)).body).toEqual([expect.objectContaining({ id: enrolled.id, totp: true })]);
      const plain = await call(admin, 'POST', '/users', { username: `plain-${suffix}` });
      expect((await call(admin, 'GET', `/users/${plain.location!.split('/').pop()!}`)).body).toMatchObject({ totp: false, disableableCredentialTypes: [] });
    } finally {
      redis.disconnect();
    }
  });

  it('a view-clients token reads clients but cannot change them, nor read users', async () => {
    const viewer = await adminOf('view-clients');
    const list = await call(viewer, 'GET', '/clients');
    expect(list.status).toBe(200);
    const some = (list.body as { id: string }[])[0]!;
    expect((await call(viewer, 'GET', `/clients/${some.id}`)).status).toBe(200);
    expect((await call(viewer, 'POST', '/clients', { clientId: `viewer-${suffix}`, serviceAccountsEnabled: true })).status).toBe(403);
    expect((await call(viewer, 'PUT', `/clients/${some.id}`, { description: 'x' })).status).toBe(403);
    expect((await call(viewer, 'DELETE', `/clients/${some.id}`)).status).toBe(403);
    expect((await call(viewer, 'POST', `/clients/${some.id}/client-secret`)).status).toBe(403);
    expect((await call(viewer, 'GET', '/users')).status).toBe(403);
  });

  it('an organization’s administrator sees and changes only its organization’s clients and users', async () => {
    await h.cli('orgs', 'create', `alpha-${suffix}`);
    await h.cli('orgs', 'create', `beta-${suffix}`);
    const alpha = await adminOf('manage-clients,manage-users', `alpha-${suffix}`);
    const beta = await adminOf('manage-clients,manage-users', `beta-${suffix}`);

    const client = await call(alpha, 'POST', '/clients', { clientId: `alpha-app-${suffix}`, serviceAccountsEnabled: true });
    expect(client.status).toBe(201);
    const clientId = client.location!.split('/').pop()!;
    const user = await call(alpha, 'POST', '/users', { username: `alpha-user-${suffix}` });
    const userId = user.location!.split('/').pop()!;
    expect((await call(admin, 'GET', `/clients/${clientId}`)).body).toMatchObject({ attributes: { 'hush.organization.id': expect.any(String) } });

    // Beta sees none of it: lists leave it out, direct access is 404, changes are 404.
    expect(((await call(beta, 'GET', '/clients')).body as { id: string }[]).map((c) => c.id)).not.toContain(clientId);
    expect((await call(beta, 'GET', `/clients?clientId=alpha-app-${suffix}`)).body).toEqual([]);
    expect((await call(beta, 'GET', `/clients/${clientId}`)).status).toBe(404);
    expect((await call(beta, 'PUT', `/clients/${clientId}`, { description: 'mine now' })).status).toBe(404);
    expect((await call(beta, 'POST', `/clients/${clientId}/client-secret`)).status).toBe(404);
    expect((await call(beta, 'DELETE', `/clients/${clientId}`)).status).toBe(404);
    expect((await call(beta, 'GET', `/users?username=alpha-user-${suffix}&exact=true`)).body).toEqual([]);
    expect((await call(beta, 'GET', `/users/${userId}`)).status).toBe(404);
    expect((await call(beta, 'PUT', `/users/${userId}`, { enabled: false })).status).toBe(404);
    expect((await call(beta, 'DELETE', `/users/${userId}`)).status).toBe(404);
    // A missing id answers the same as one outside the organization.
    expect(await call(beta, 'GET', `/clients/00000000-0000-4000-8000-000000000000`)).toEqual(await call(beta, 'GET', `/clients/${clientId}`));

    // Alpha reaches its own; neither reaches realm-wide settings nor grants roles it lacks.
    expect((await call(alpha, 'GET', `/clients/${clientId}`)).status).toBe(200);
    expect((await call(alpha, 'GET', `/users/${userId}`)).status).toBe(200);
    expect((await call(alpha, 'POST', '/organizations', { name: `gamma-${suffix}` })).status).toBe(403);
    const realmAdmin = ((await call(admin, 'GET', '/clients/a0b1c2d3-0000-4000-8000-7265616c6d6d/roles')).body as { id: string; name: string }[]).find(
      (r) => r.name === 'realm-admin',
    )!;
    expect((await call(alpha, 'POST', `/users/${userId}/role-mappings/clients/realm-management`, [realmAdmin])).status).toBe(403);
    expect((await call(alpha, 'DELETE', `/users/${userId}`, {})).status).toBe(204);
  });

  it('ids that are not ids, odd paging and odd bodies are 4xx, never 500', async () => {
    for (const [method, path, body] of [
      ['GET', '/organizations/not-a-uuid'],
      ['PUT', '/organizations/not-a-uuid', { name: 'x' }],
      ['DELETE', '/organizations/not-a-uuid/members/also-not'],
      ['POST', '/organizations/not-a-uuid/members', 'x'],
      ['GET', '/users/not-a-uuid'],
      ['PUT', '/users/not-a-uuid/reset-password', { value: 'long enough password' }],
      ['GET', '/clients/not-a-uuid/client-secret'],
      ['GET', '/roles-by-id/not-a-uuid'],
      ['POST', '/users/not-a-uuid/role-mappings/realm', [{ id: 'x', name: 'y' }]],
      ['GET', '/users?first=-1'],
      ['GET', '/events?dateFrom=yesterday'],
      ['POST', '/users', [1, 2]],
      ['POST', '/clients', { clientId: 'x'.repeat(100), serviceAccountsEnabled: true }],
      ['PUT', '/events/config', { enabledEventTypes: ['NOT_A_TYPE'] }],
    ] as const) {
      const res = await call(admin, method, path, body);
      expect([400, 404]).toContain(res.status);
    }
  });

  it('answers 401 without a token, and 403 to a valid token of the realm for another API (as Keycloak)', async () => {
    expect(await call(undefined, 'GET', '/users')).toMatchObject({ status: 401 });
    const other = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'other', '--grants', 'client_credentials', '--scopes', 'secrets:read');
    sensitive.push(other.client_secret);
    expect(await call(await tokenOf(other.client_id, other.client_secret), 'GET', '/users')).toMatchObject({ status: 403 });
  });

  it('every answer checked matched the document, which covers every route', () => {
    expect(checked.size).toBeGreaterThan(20);
  });

  it('no client secret or password used appears in any log line', () => {
    const logs = h.logs.join('\n');
    for (const s of sensitive) expect(logs).not.toContain(s);
  });
});

describe('with CLIENT_SECRET_READBACK=false', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await startIdentity({ CLIENT_SECRET_READBACK: 'false' });
  });
  afterAll(() => off?.close());

  it('no sealed copy is kept: reading a secret back answers 404 and the secret still works', async () => {
    const token = await bootstrapAdmin(off, `https://s-${suffix}.example.com/api/v1`);
    const list = await fetch(`${off.url}/auth/admin/realms/public/clients?clientId=hush-admin`, { headers: { authorization: `Bearer ${token}` } });
    const [client] = (await list.json()) as { id: string }[];
    const secret = await fetch(`${off.url}/auth/admin/realms/public/clients/${client!.id}/client-secret`, { headers: { authorization: `Bearer ${token}` } });
    expect(secret.status).toBe(404);
  });
});

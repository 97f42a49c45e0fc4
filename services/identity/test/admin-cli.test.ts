import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { capturingLogger, cliDriver, listenOnFreePort, postForm } from '@hush/testing';
import { createIdentityApp } from '../src/app.js';
import { runCli } from '../src/cli/cli.js';
import { createDb } from '../src/db/knex.js';
import { basic, startIdentity, type Harness } from './harness.js';

/**
 * The first administrator from bootstrap (its secret also from a file), the CLI's admin commands
 * (the same use-cases as the API), and a rotation through one replica refusing the old secret on
 * another at once.
 */

let h: Harness;
let tokenUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'hush-admin-'));
const adminSecret = randomBytes(32).toString('hex');

beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const adminToken = async (secret: string) => {
  const res = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: secret });
  expect(res.status).toBe(200);
  return (res.body as { access_token: string }).access_token;
};

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

it('bootstrap makes hush-admin with the secret from ADMIN_CLIENT_SECRET_FILE, holding realm-admin, printed nowhere', async () => {
  writeFileSync(join(dir, 'admin-secret'), `${adminSecret}\n`);
  const { cli } = cliDriver(runCli, { ...h.env, ADMIN_CLIENT_SECRET_FILE: join(dir, 'admin-secret') });
  const out = await cli<{ admin_client: Record<string, unknown> }>('bootstrap', '--secrets-audience', 'https://s.example.com/api/v1');
  expect(out.admin_client).toEqual({ client_id: 'hush-admin', created: true });
  const token = claims(await adminToken(adminSecret));
  expect(token).toMatchObject({
    aud: 'urn:hush:realm-management',
    client_id: 'hush-admin',
    resource_access: { 'realm-management': { roles: expect.arrayContaining(['realm-admin', 'manage-clients', 'view-events']) } },
  });
  // Run again: nothing changes, nothing printed.
  expect((await cli<{ admin_client: Record<string, unknown> }>('bootstrap', '--secrets-audience', 'https://s.example.com/api/v1')).admin_client).toEqual({
    client_id: 'hush-admin',
    created: false,
  });
});

it('tokens for other APIs never carry realm-management roles', async () => {
  const c = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'both',
    '--grants',
    'client_credentials',
    '--scopes',
    'realm-management,openid',
  );
  await h.cli('roles', 'grant', 'view-users', '--client', c.client_id);
  await h.cli('apis', 'create', 'https://other.example.com', '--scopes', 'other:read');
  const other = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'other', '--grants', 'client_credentials', '--scopes', 'other:read');
  await h.cli('roles', 'grant', 'view-users', '--client', other.client_id);
  const admin = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret });
  expect(claims((admin.body as { access_token: string }).access_token)['resource_access']).toEqual({
    'realm-management': { roles: ['query-groups', 'query-users', 'view-users'] },
  });
  const api = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: other.client_id, client_secret: other.client_secret });
  expect(claims((api.body as { access_token: string }).access_token)['resource_access']).toEqual({});
});

it('the CLI grants roles, reads a secret back, disables and deletes users', async () => {
  const user = `cli-${randomBytes(3).toString('hex')}`;
  await h.cli('users', 'create', user, '--password', 'a long enough password');
  await h.cli('roles', 'create', 'support');
  await h.cli('roles', 'grant', 'support,view-clients', '--user', user);
  const token = await adminToken(adminSecret);
  const [found] = (await (await fetch(`${h.url}/auth/admin/realms/public/users?username=${user}&exact=true`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    id: string;
  }[];
  const mappings = await (await fetch(`${h.url}/auth/admin/realms/public/users/${found!.id}/role-mappings`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(mappings).toMatchObject({ realmMappings: [{ name: 'support' }], clientMappings: { 'realm-management': { mappings: [{ name: 'view-clients' }] } } });
  expect(await h.cli('clients', 'secret', 'hush-admin')).toEqual({ client_id: 'hush-admin', client_secret: adminSecret });
  expect(await h.cli('users', 'disable', user)).toEqual({ username: user, enabled: false });
  expect(await h.cli('users', 'delete', user)).toEqual({ username: user, deleted: true });
  expect((await h.cliRaw('roles', 'grant', 'realm-admin', '--user', user)).code).toBe(1);
});

it('a secret rotated through one replica is refused at once by another', async () => {
  // A second replica: its own app, connections and client cache, on the same database and Redis.
  const { server, url } = await listenOnFreePort();
  const { logger } = capturingLogger('replica');
  const db = createDb(h.config.DATABASE_URL, 4);
  const redis = new Redis(h.config.REDIS_URL, { maxRetriesPerRequest: 1 });
  const replica = createIdentityApp({ ...h.config, AUTH_URL: url, issuer: `${url}/auth/realms/public` }, { db, redis, logger });
  await replica.start();
  server.on('request', replica.handler);
  try {
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'replicated', '--grants', 'client_credentials', '--scopes', 'openid');
    const onReplica = (secret: string) =>
      postForm(`${url}/auth/realms/public/protocol/openid-connect/token`, { grant_type: 'client_credentials' }, { authorization: basic(c.client_id, secret) });
    expect((await onReplica(c.client_secret)).status).toBe(200); // now cached on the replica
    const token = await adminToken(adminSecret);
    const [client] = (await (await fetch(`${h.url}/auth/admin/realms/public/clients?clientId=${c.client_id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      id: string;
    }[];
    const rotated = await fetch(`${h.url}/auth/admin/realms/public/clients/${client!.id}/client-secret`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const { value } = (await rotated.json()) as { value: string };
    // NOTIFY reaches the replica's listener at commit; allow it the time of a round trip.
    const start = Date.now();
    let status = (await onReplica(c.client_secret)).status;
    while (status === 200 && Date.now() - start < 500) status = (await onReplica(c.client_secret)).status;
    expect(status).toBe(401);
    expect((await onReplica(value)).status).toBe(200);
  } finally {
    await replica.close();
    server.closeAllConnections();
    server.close();
    await db.destroy();
    redis.disconnect();
  }
});

it('the CLI updates a client (only what is given changes; disabled: refused at the token endpoint), signs a user out and moves members', async () => {
  const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'upd', '--grants', 'client_credentials', '--scopes', 'openid');
  const updated = await h.cli<Record<string, unknown>>('clients', 'update', c.client_id, '--name', 'renamed', '--web-origin', 'https://a.example.com');
  expect(updated).toMatchObject({ client_id: c.client_id, name: 'renamed', grant_types: ['client_credentials'], web_origins: ['https://a.example.com'], enabled: true });
  await h.cli('clients', 'update', c.client_id, '--disable');
  const start = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - start < 1000)
    status = (await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basic(c.client_id, c.client_secret) })).status;
  expect(status).toBe(401);

  const user = `mover-${randomBytes(3).toString('hex')}`;
  await h.cli('users', 'create', user, '--password', 'a long enough password');
  await h.cli('orgs', 'create', `${user}-org`);
  await h.cli('orgs', 'add-member', `${user}-org`, user);
  expect(await h.cli('orgs', 'remove-member', `${user}-org`, user)).toEqual({ organization: `${user}-org`, username: user, removed: true });
  expect(await h.cli('users', 'logout', user)).toEqual({ username: user, grants_ended: 0 });
});

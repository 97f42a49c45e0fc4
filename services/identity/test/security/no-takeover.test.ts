import { randomBytes, randomUUID } from 'node:crypto';
import { Browser, parseForms } from '@hush/testing';
import { authorizationUrl, clientConfig, signIn } from '../flows.js';
import { REALM_MANAGEMENT_ROLES } from '../../src/roles/index.js';
import { startIdentity, type Harness } from '../harness.js';
import { adminCallers, REALM_MANAGEMENT_ID, type AdminCallers } from './admin-callers.js';

/**
 * No takeover: an administrator acts on a principal (a user, a client, a client's service account)
 * only if it holds every realm-management role that principal holds, composites expanded: refused
 * with 403 (and nothing changed) exactly where the caller holds less, allowed where it holds as
 * much. For one route of each kind of principal (user, client, service account), every kind of
 * caller against principals holding each kind of right; for every other route that acts on a
 * principal, the cases at the rule's edges (see `edges`). Then the attack of the report
 * (manage-users resets a realm administrator's password and signs in as them), the bootstrap
 * client's secret, and the admin console.
 */

let h: Harness;
let a: AdminCallers;
const suffix = randomBytes(3).toString('hex');
let made = 0;
const unique = () => `${suffix}-${++made}`;

/** What each role holds, composites expanded (Keycloak's realm-management composites). */
const ALL = [...REALM_MANAGEMENT_ROLES];
const EXPANDED: Record<string, string[]> = {
  '': [],
  'view-users': ['view-users', 'query-users', 'query-groups'],
  'manage-users': ['manage-users', 'view-users', 'query-users', 'query-groups'],
  'manage-clients': ['manage-clients', 'view-clients', 'query-clients'],
  'realm-admin': ALL,
};
const holds = (roles: string) => new Set(roles.split(',').flatMap((r) => EXPANDED[r] ?? [r]));

type Caller = { label: string; roles: string; token?: () => Promise<string> };
const CALLERS: Caller[] = [
  { label: 'a manage-users client', roles: 'manage-users' },
  { label: 'a manage-clients client', roles: 'manage-clients' },
  { label: 'a view-users client', roles: 'view-users' },
  { label: 'a manage-users and manage-clients client', roles: 'manage-users,manage-clients' },
  { label: 'a person holding only the realm-admin composite', roles: 'realm-admin' },
];
const TARGET_ROLES = ['', 'view-users', 'manage-users', 'manage-clients', 'realm-admin'];
const holding = (roles: string) => (roles ? `holding ${roles}` : 'holding no admin role');

type Kind = 'user' | 'client' | 'service account';
interface Action {
  kind: Kind;
  does: string;
  /** The route's own role: without it every call is 403 anyway. */
  needs: 'manage-users' | 'manage-clients';
  request: (id: string) => { method: string; path: string; body?: unknown };
  /** The answer when allowed (400: handover is not configured here; 404: no such credential, or a service account is no person). */
  ok: number;
}

let offlineAccess: { id: string; name: string };
const ACTIONS: Action[] = [
  { kind: 'user', does: 'change the profile of', needs: 'manage-users', request: (id) => ({ method: 'PUT', path: `/users/${id}`, body: { firstName: 'Mallory' } }), ok: 204 },
  { kind: 'user', does: 'disable', needs: 'manage-users', request: (id) => ({ method: 'PUT', path: `/users/${id}`, body: { enabled: false } }), ok: 204 },
  {
    kind: 'user',
    does: 'change the address of',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}`, body: { email: `mallory-${unique()}@example.com` } }),
    ok: 204,
  },
  {
    kind: 'user',
    does: 'set the password (in the representation) of',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}`, body: { credentials: [{ type: 'password', value: 'mallory-was-here', temporary: false }] } }),
    ok: 204,
  },
  {
    kind: 'user',
    does: 'reset the password of',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}/reset-password`, body: { type: 'password', value: 'mallory-was-here', temporary: false } }),
    ok: 204,
  },
  {
    kind: 'user',
    does: 'hand a new password over for',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}/reset-password?handoverTo=mallory%40example.com`, body: { type: 'password', temporary: false } }),
    ok: 400,
  },
  { kind: 'user', does: 'sign out', needs: 'manage-users', request: (id) => ({ method: 'POST', path: `/users/${id}/logout`, body: {} }), ok: 204 },
  {
    kind: 'user',
    does: 'send an action e-mail to',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}/execute-actions-email`, body: ['UPDATE_PASSWORD'] }),
    ok: 204,
  },
  { kind: 'user', does: 'remove a second factor of', needs: 'manage-users', request: (id) => ({ method: 'DELETE', path: `/users/${id}/credentials/${randomUUID()}` }), ok: 404 },
  {
    kind: 'user',
    does: 'map a realm role to',
    needs: 'manage-users',
    request: (id) => ({ method: 'POST', path: `/users/${id}/role-mappings/realm`, body: [offlineAccess] }),
    ok: 204,
  },
  { kind: 'user', does: 'delete', needs: 'manage-users', request: (id) => ({ method: 'DELETE', path: `/users/${id}`, body: {} }), ok: 204 },
  { kind: 'client', does: 'change', needs: 'manage-clients', request: (id) => ({ method: 'PUT', path: `/clients/${id}`, body: { description: 'Mallory was here' } }), ok: 204 },
  { kind: 'client', does: 'disable', needs: 'manage-clients', request: (id) => ({ method: 'PUT', path: `/clients/${id}`, body: { enabled: false } }), ok: 204 },
  { kind: 'client', does: 'read the secret of', needs: 'manage-clients', request: (id) => ({ method: 'GET', path: `/clients/${id}/client-secret` }), ok: 200 },
  { kind: 'client', does: 'regenerate the secret of', needs: 'manage-clients', request: (id) => ({ method: 'POST', path: `/clients/${id}/client-secret`, body: {} }), ok: 200 },
  {
    kind: 'client',
    does: 'hand a new secret over for',
    needs: 'manage-clients',
    request: (id) => ({ method: 'POST', path: `/clients/${id}/client-secret?handoverTo=mallory%40example.com`, body: {} }),
    ok: 400,
  },
  { kind: 'client', does: 'delete', needs: 'manage-clients', request: (id) => ({ method: 'DELETE', path: `/clients/${id}`, body: {} }), ok: 204 },
  {
    kind: 'service account',
    does: 'map a realm role to',
    needs: 'manage-users',
    request: (id) => ({ method: 'POST', path: `/users/${id}/role-mappings/realm`, body: [offlineAccess] }),
    ok: 204,
  },
  { kind: 'service account', does: 'sign out', needs: 'manage-users', request: (id) => ({ method: 'POST', path: `/users/${id}/logout`, body: {} }), ok: 204 },
  {
    kind: 'service account',
    does: 'reset the password of',
    needs: 'manage-users',
    request: (id) => ({ method: 'PUT', path: `/users/${id}/reset-password`, body: { type: 'password', value: 'mallory-was-here', temporary: false } }),
    ok: 404,
  },
];

let roleIds: Map<string, string>;

/** A token obtained again once it is two minutes old. */
function renewed(obtain: () => Promise<string>): () => Promise<string> {
  let token: Promise<string> | undefined;
  let at = 0;
  return () => {
    if (!token || Date.now() - at > 120_000) {
      at = Date.now();
      token = obtain();
    }
    return token;
  };
}

/** Maps realm-management roles to a user (or service-account user), as the bootstrap administrator. */
async function grant(userId: string, roles: string): Promise<void> {
  if (!roles) return;
  const body = roles.split(',').map((name) => ({ id: roleIds.get(name), name }));
  expect((await a.call(a.admin, 'POST', `/users/${userId}/role-mappings/clients/realm-management`, body)).status).toBe(204);
}

/** A fresh principal of `kind` holding `roles`: the id the action takes, and how to read it back. */
async function principal(kind: Kind, roles: string): Promise<{ id: string; snapshot: () => Promise<unknown> }> {
  if (kind === 'user') {
    const id = a.idOf(
      await a.call(a.admin, 'POST', '/users', {
        username: `target-${unique()}`,
        email: `target-${unique()}@example.com`,
        enabled: true,
        credentials: [{ type: 'password', value: 'the target’s own password', temporary: false }],
      }),
    );
    await grant(id, roles);
    const snapshot = async () => [await a.call(a.admin, 'GET', `/users/${id}`), await a.call(a.admin, 'GET', `/users/${id}/role-mappings`)].map((r) => [r.status, r.body]);
    return { id, snapshot };
  }
  const id = a.idOf(await a.call(a.admin, 'POST', '/clients', { clientId: `target-${unique()}`, serviceAccountsEnabled: true }));
  const account = (await a.call(a.admin, 'GET', `/clients/${id}/service-account-user`)).body as { id: string };
  await grant(account.id, roles);
  const snapshot = async () =>
    [
      await a.call(a.admin, 'GET', `/clients/${id}`),
      await a.call(a.admin, 'GET', `/clients/${id}/client-secret`),
      await a.call(a.admin, 'GET', `/users/${account.id}/role-mappings`),
    ].map((r) => [r.status, r.body]);
  return { id: kind === 'client' ? id : account.id, snapshot };
}

beforeAll(async () => {
  h = await startIdentity({ CLIENT_SECRET_READBACK: 'true' });
  a = await adminCallers(h);
  roleIds = new Map(((await a.call(a.admin, 'GET', `/clients/${REALM_MANAGEMENT_ID}/roles`)).body as { id: string; name: string }[]).map((r) => [r.name, r.id]));
  offlineAccess = ((await a.call(a.admin, 'GET', '/roles')).body as { id: string; name: string }[]).find((r) => r.name === 'offline_access')!;
  for (const caller of CALLERS) {
    const person = caller.label.startsWith('a person');
    // Admin API tokens live 5 minutes; the table may take longer on a busy machine.
    caller.token = renewed(async () => (person ? (await a.personHolding(caller.roles)).token : (await a.clientHolding(caller.roles)).token));
    await caller.token();
  }
}, 120_000);
afterAll(() => h?.close());

/** The route of each kind of principal tried by every caller on every target. */
const EVERY_PAIR = new Set(['user reset the password of', 'client regenerate the secret of', 'service account map a realm role to']);
/**
 * The other routes, at the edges of the rule: the narrowest caller with the route's role, refused
 * on a target holding more and allowed on one holding as much; a caller without the route's role,
 * refused even on a target holding nothing; and the realm administrator, allowed on its peer.
 */
const edges = (action: Action): [string, string][] => [
  [action.needs, 'realm-admin'],
  [action.needs, action.needs],
  ['view-users', ''],
  ['realm-admin', 'realm-admin'],
];
const tried = (action: Action, caller: Caller, target: string) =>
  EVERY_PAIR.has(`${action.kind} ${action.does}`) || edges(action).some(([roles, held]) => caller.roles === roles && target === held);

const cases = ACTIONS.flatMap((action) =>
  CALLERS.flatMap((caller) =>
    TARGET_ROLES.filter((target) => tried(action, caller, target)).map((target) => {
      const mine = holds(caller.roles);
      const allowed = mine.has(action.needs) && [...holds(target)].every((r) => mine.has(r));
      const name = `${caller.label} may${allowed ? '' : ' not'} ${action.does} a ${action.kind} ${holding(target)}: ${allowed ? action.ok : 403}`;
      return [name, { action, caller, target, allowed }] as const;
    }),
  ),
);

describe('the actions on a principal, by callers holding more, as much and less than the principal', () => {
  it('tries every caller on every target for one route of each kind of principal', () => {
    expect(ACTIONS.filter((action) => EVERY_PAIR.has(`${action.kind} ${action.does}`)).map((action) => action.kind)).toEqual(['user', 'client', 'service account']);
  });

  // Side by side (Jest's maxConcurrency at a time): each case makes its own principal, and the
  // rule is about who may act, not about requests racing.
  it.concurrent.each(cases)('%s', async (_name, { action, caller, target, allowed }) => {
    const { id, snapshot } = await principal(action.kind, target);
    // What a refusal must leave unchanged (an allowed action changes it).
    const before = allowed ? undefined : await snapshot();
    const { method, path, body } = action.request(id);
    const answer = await a.call(await caller.token!(), method, path, body);
    if (allowed) {
      expect(answer.status).toBe(action.ok);
      return;
    }
    // Keycloak's shape, which its admin library reports as forbidden; and nothing changed.
    expect(answer).toMatchObject({ status: 403, body: { error: 'HTTP 403 Forbidden' } });
    expect(await snapshot()).toEqual(before);
  });
});

describe('the attack of the report', () => {
  it('a manage-users caller cannot reset a realm administrator’s password: the administrator still signs in with theirs, the attacker’s is refused', async () => {
    const attacker = await a.clientHolding('manage-users');
    const victim = await a.personHolding('realm-admin');
    const [found] = (await a.call(a.admin, 'GET', `/users?username=${victim.username}&exact=true`)).body as { id: string }[];
    const chosen = `taken-over-${randomBytes(6).toString('hex')}`;
    expect((await a.call(attacker.token, 'PUT', `/users/${found!.id}/reset-password`, { type: 'password', value: chosen, temporary: false })).status).toBe(403);
    expect((await a.call(attacker.token, 'DELETE', `/users/${found!.id}`, {})).status).toBe(403);

    const app = await h.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      'sign-in check',
      '--grants',
      'authorization_code',
      '--scopes',
      'openid',
      '--redirect-uri',
      'https://app.example.com/cb',
    );
    const config = await clientConfig(h.issuer, app.client_id, app.client_secret);
    const attempt = async (password: string) =>
      (await signIn((await authorizationUrl(config, 'https://app.example.com/cb', 'openid')).url, victim.username, password)).consent.html;
    expect(await attempt(chosen)).toContain('Invalid username or password');
    expect(await attempt(victim.password)).not.toContain('Invalid username or password');
  });

  it('a manage-clients caller can neither read nor regenerate nor change nor delete the bootstrap client hush-admin, which keeps working', async () => {
    const attacker = await a.clientHolding('manage-clients');
    const [bootstrap] = (await a.call(attacker.token, 'GET', '/clients?clientId=hush-admin')).body as { id: string; access: { manage: boolean } }[];
    expect(bootstrap!.access.manage).toBe(false);
    for (const [method, path, body] of [
      ['GET', `/clients/${bootstrap!.id}/client-secret`],
      ['POST', `/clients/${bootstrap!.id}/client-secret`, {}],
      ['POST', `/clients/${bootstrap!.id}/client-secret?handoverTo=mallory%40example.com`, {}],
      ['PUT', `/clients/${bootstrap!.id}`, { enabled: false }],
      ['DELETE', `/clients/${bootstrap!.id}`, {}],
    ] as const) {
      expect({ method, path, ...(await a.call(attacker.token, method, path, body)) }).toMatchObject({ status: 403, body: { error: 'HTTP 403 Forbidden' } });
    }
    expect(await a.tokenOf('hush-admin', a.adminSecret)).toBeTruthy();
  });

  it('the representations say what the caller may do: access.manage only on principals within its rights', async () => {
    const caller = await a.clientHolding('manage-users');
    const high = await principal('user', 'realm-admin');
    const low = await principal('user', 'view-users');
    expect((await a.call(caller.token, 'GET', `/users/${high.id}`)).body).toMatchObject({ access: { manage: false } });
    expect((await a.call(caller.token, 'GET', `/users/${low.id}`)).body).toMatchObject({ access: { manage: true } });
    const listed = (await a.call(caller.token, 'GET', '/users?max=-1')).body as { id: string; access: { manage: boolean } }[];
    expect(listed.find((u) => u.id === high.id)?.access.manage).toBe(false);
    expect(listed.find((u) => u.id === low.id)?.access.manage).toBe(true);
    const viewer = await a.clientHolding('view-users');
    expect((await a.call(viewer.token, 'GET', `/users/${low.id}`)).body).toMatchObject({ access: { manage: false } });
  });
});

describe('the admin console', () => {
  const CONSOLE = '/auth/admin/public/console';

  async function consoleOf(roles: string) {
    const person = await a.personHolding(roles);
    const browser = new Browser(h.url);
    const login = await browser.navigate(`${CONSOLE}/`);
    const home = await browser.submit(login.html, 0, { username: person.username, password: person.password });
    expect(home.res.status).toBe(200);
    const csrf = parseForms(home.html).find((f) => f.hidden['csrf'])!.hidden['csrf']!;
    return { browser, csrf };
  }

  it('does not offer a manage-users administrator the actions on a realm administrator, and refuses them when posted anyway', async () => {
    const { browser, csrf } = await consoleOf('manage-users');
    const high = await principal('user', 'realm-admin');
    const low = await principal('user', '');
    const actions = (html: string) =>
      parseForms(html)
        .map((f) => f.action)
        .filter((action) => action.includes('/users/'));
    const lowPage = await browser.navigate(`${CONSOLE}/users/${low.id}`);
    expect(actions(lowPage.html)).toEqual(
      expect.arrayContaining([`${CONSOLE}/users/${low.id}/enabled`, `${CONSOLE}/users/${low.id}/logout`, `${CONSOLE}/users/${low.id}/password`]),
    );
    expect(lowPage.html).toContain(`${CONSOLE}/users/${low.id}/delete`);
    const highPage = await browser.navigate(`${CONSOLE}/users/${high.id}`);
    expect(highPage.res.status).toBe(200);
    expect(actions(highPage.html)).toEqual([]);
    expect(highPage.html).not.toContain(`${CONSOLE}/users/${high.id}/delete`);

    const before = await high.snapshot();
    for (const [path, form] of [
      ['password', { password: 'mallory-was-here' }],
      ['enabled', { enabled: 'false' }],
      ['logout', {}],
      ['delete', {}],
    ] as const) {
      const res = await browser.send(`${CONSOLE}/users/${high.id}/${path}`, { csrf, ...form });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect(await high.snapshot()).toEqual(before);
  });

  it('does not offer a manage-clients administrator the secret of hush-admin, and refuses it when posted anyway', async () => {
    const { browser, csrf } = await consoleOf('manage-clients');
    const [bootstrap] = (await a.call(a.admin, 'GET', '/clients?clientId=hush-admin')).body as { id: string }[];
    const page = await browser.navigate(`${CONSOLE}/clients/${bootstrap!.id}`);
    expect(page.res.status).toBe(200);
    expect(parseForms(page.html).map((f) => f.action)).not.toContain(`${CONSOLE}/clients/${bootstrap!.id}/secret`);
    expect(page.html).not.toContain(`${CONSOLE}/clients/${bootstrap!.id}/delete`);
    for (const path of ['secret', 'delete']) {
      expect((await browser.send(`${CONSOLE}/clients/${bootstrap!.id}/${path}`, { csrf })).status).toBe(403);
    }
    expect(await a.tokenOf('hush-admin', a.adminSecret)).toBeTruthy();
  });
});

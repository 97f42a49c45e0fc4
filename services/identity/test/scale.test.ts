import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { postForm } from '@hush/testing';
import { createDb, type Db } from '../src/db/knex.js';
import { EventsRepository } from '../src/events/events.repository.js';
import { UsersRepository } from '../src/users/users.repository.js';
import { startIdentity, type Harness } from './harness.js';

/**
 * What keeps identity's costs flat as its tables grow, through its behaviour: retention and the
 * sweep of expired artifacts work in bounded batches (SWEEP_BATCH_SIZE, here 3) and leave rows
 * another transaction holds; the admin API's lists, paged by Keycloak's first/max, give every row
 * once to a client paging through them while rows are added; searches find what they found.
 * Times are set in the database, so no test waits for a clock.
 */
let h: Harness;
let db: Db;
let token: string;
const suffix = randomBytes(3).toString('hex');
beforeAll(async () => {
  h = await startIdentity({ SWEEP_BATCH_SIZE: '3', EVENTS_EXPIRATION: String(30 * 86400) });
  db = createDb(h.config.DATABASE_URL, 3);
  const boot = await h.cli<{ admin_client: { client_secret?: string } }>('bootstrap', '--secrets-audience', `https://s-${suffix}.example.com/api/v1`);
  const res = await postForm(`${h.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    client_id: 'hush-admin',
    client_secret: boot.admin_client.client_secret!,
  });
  token = (res.body as { access_token: string }).access_token;
});
afterAll(async () => {
  await db.destroy();
  await h.close();
});

async function admin<T>(path: string): Promise<T> {
  const res = await fetch(`${h.url}/auth/admin/realms/public${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/** User events straight into the table, `ageDays` old, each with a session id naming it. */
const insertEvents = (names: string[], ageDays: number) =>
  db('events').insert(
    names.map((name, i) => ({ time: db.raw(`now() - make_interval(days => ?, secs => ?)`, [ageDays, i]), type: 'LOGIN', session_id: name, client_id: `c-${suffix}` })),
  );

describe('retention and sweeps', () => {
  it('events and admin events past EVENTS_EXPIRATION go, in batches, however many; recent ones stay', async () => {
    const old = Array.from({ length: 8 }, (_, i) => `old-${i}`);
    await insertEvents(old, 40);
    await insertEvents(['recent'], 1);
    await db('admin_events').insert(
      [40, 40, 40, 40, 1].map((days, i) => ({
        time: db.raw(`now() - make_interval(days => ?)`, [days]),
        operation_type: 'UPDATE',
        resource_type: 'USER',
        resource_path: `users/${days}-${i}`,
      })),
    );
    expect(await h.identity.sweep()).toBeGreaterThanOrEqual(12);
    const left = await db('events').where('client_id', `c-${suffix}`).pluck('session_id');
    expect(left).toEqual(['recent']);
    expect(await db('admin_events').pluck('resource_path')).toEqual(['users/1-4']);
  });

  it('expired protocol artifacts go in batches; live ones stay; one another transaction holds goes at the next sweep', async () => {
    const row = (id: string, expiresIn: string) => ({ model: 'Session', id: `${id}-${suffix}`, payload: {}, expires_at: db.raw(`now() + ?::interval`, [expiresIn]) });
    await db('oidc_models').insert([...Array.from({ length: 7 }, (_, i) => row(`gone-${i}`, '-1 minute')), row('held', '-1 minute'), row('live', '1 hour')]);
    const trx = await db.transaction();
    try {
      await trx('oidc_models')
        .where({ model: 'Session', id: `held-${suffix}` })
        .forUpdate()
        .first();
      await h.identity.sweep();
      expect((await db('oidc_models').where('id', 'like', `%-${suffix}`).pluck('id')).sort()).toEqual([`held-${suffix}`, `live-${suffix}`]);
    } finally {
      await trx.rollback();
    }
    await h.identity.sweep();
    expect(await db('oidc_models').where('id', 'like', `%-${suffix}`).pluck('id')).toEqual([`live-${suffix}`]);
  });

  it('clearing the events deletes every one of them', async () => {
    await insertEvents(['to-clear-1', 'to-clear-2'], 2);
    const { rows } = await db.raw<{ rows: { now: Date }[] }>('SELECT now()');
    const before = rows[0]!.now;
    const res = await fetch(`${h.url}/auth/admin/realms/public/events`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(204);
    // Every event stored before the clear is gone (the recorder may store one that happens after it).
    expect(await db('events').whereRaw('time < ?', [before]).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await db('events').whereIn('session_id', ['to-clear-1', 'to-clear-2']).count({ n: '*' })).toEqual([{ n: '0' }]);
  });
});

describe('paging by first/max while rows are added', () => {
  it('a client paging through the users sees every user once, though users sorting before its position are created between pages', async () => {
    const names = Array.from({ length: 23 }, (_, i) => `m-${suffix}-${String(i).padStart(2, '0')}`);
    for (const name of names) await h.cli('users', 'create', name, '--password', 'a long enough password');
    const seen: string[] = [];
    for (let first = 0, added = 0; ; first += 5) {
      const page = await admin<{ username: string }[]>(`/users?search=-${suffix}-&first=${first}&max=5`);
      seen.push(...page.map((u) => u.username));
      if (page.length < 5) break;
      // Sorts before every user listed so far (`a` < `m`): with an offset, the next page would repeat one.
      await h.cli('users', 'create', `a-${suffix}-${added++}`, '--password', 'a long enough password');
    }
    const listed = seen.filter((u) => u.startsWith('m-'));
    expect(listed).toEqual(names);
  });

  it('a client paging through the events, newest first, sees every event once while new ones keep arriving', async () => {
    const names = Array.from({ length: 17 }, (_, i) => `page-${String(i).padStart(2, '0')}`);
    // Newest first: page-00 is the newest of them.
    await db('events').insert(names.map((name, i) => ({ time: db.raw(`now() - make_interval(mins => ?)`, [i + 1]), type: 'LOGIN', session_id: name, client_id: `p-${suffix}` })));
    const seen: string[] = [];
    for (let first = 0, n = 0; ; first += 4) {
      const page = await admin<{ sessionId: string }[]>(`/events?client=p-${suffix}&first=${first}&max=4`);
      seen.push(...page.map((e) => e.sessionId));
      if (page.length < 4) break;
      await db('events').insert({ time: db.fn.now(), type: 'LOGIN', session_id: `new-${n++}`, client_id: `p-${suffix}` });
    }
    expect(seen.filter((s) => s.startsWith('page-'))).toEqual(names);
  });

  it('a page asked for directly, with no page before it, is the page at that offset', async () => {
    const all = await admin<{ username: string }[]>(`/users?search=m-${suffix}-&max=-1`);
    const jump = await admin<{ username: string }[]>(`/users?search=m-${suffix}-&first=11&max=3`);
    expect(jump).toEqual(all.slice(11, 14));
  });
});

describe('sorted lists', () => {
  it('users sorted by e-mail, newest or any other offered field, paged by first/max, come once each in that order, by username among equals', async () => {
    const tag = `s-${suffix}`;
    // Addresses in the reverse order of the usernames; one without an address sorts as empty text.
    for (const [i, email] of ['d', 'C', 'b', 'a', undefined].entries())
      await h.cli('users', 'create', `${tag}-${i}`, '--password', 'a long enough password', ...(email ? ['--email', `${email}-${tag}@example.com`] : []));
    const names = async (q: string) => (await admin<{ username: string }[]>(`/users?search=${tag}&${q}`)).map((u) => u.username);
    expect(await names('sort=email')).toEqual([`${tag}-4`, `${tag}-3`, `${tag}-2`, `${tag}-1`, `${tag}-0`]);
    expect(await names('sort=email&direction=desc')).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`, `${tag}-3`, `${tag}-4`]);
    expect(await names('sort=createdTimestamp&direction=desc')).toEqual([`${tag}-4`, `${tag}-3`, `${tag}-2`, `${tag}-1`, `${tag}-0`]);
    expect(await names('sort=enabled')).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`, `${tag}-3`, `${tag}-4`]);
    expect(await names('direction=desc')).toEqual([`${tag}-4`, `${tag}-3`, `${tag}-2`, `${tag}-1`, `${tag}-0`]);

    // Paged two at a time, with a user sorting before the position created between pages: each once.
    const seen: string[] = [];
    for (let first = 0, added = 0; ; first += 2) {
      const page = await names(`sort=email&direction=desc&first=${first}&max=2`);
      seen.push(...page);
      if (page.length < 2) break;
      await h.cli('users', 'create', `${tag}-new-${added++}`, '--password', 'a long enough password', '--email', `z-${added}-${tag}@example.com`);
    }
    expect(seen.filter((u) => !u.includes('-new-'))).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-2`, `${tag}-3`, `${tag}-4`]);
  });

  it('clients sorted by name, descending, paged by first/max, come once each', async () => {
    const tag = `k-${suffix}`;
    for (const name of ['Beta', 'alpha', 'Gamma'])
      await h.cli('clients', 'create', '--id', `${tag}-${name}`, '--name', `${name} ${tag}`, '--grants', 'client_credentials', '--scopes', 'openid');
    const page = async (first: number) =>
      (await admin<{ clientId: string }[]>(`/clients?clientId=${tag}&search=true&sort=name&direction=desc&first=${first}&max=2`)).map((c) => c.clientId);
    expect([...(await page(0)), ...(await page(2))]).toEqual([`${tag}-Gamma`, `${tag}-Beta`, `${tag}-alpha`]);
  });

  it('events oldest first, paged by first/max, come once each while new ones arrive', async () => {
    const names = Array.from({ length: 7 }, (_, i) => `old-${i}`);
    // old-0 is the oldest.
    await db('events').insert(names.map((name, i) => ({ time: db.raw(`now() - make_interval(mins => ?)`, [100 - i]), type: 'LOGIN', session_id: name, client_id: `o-${suffix}` })));
    const seen: string[] = [];
    for (let first = 0; ; first += 3) {
      const page = await admin<{ sessionId: string }[]>(`/events?client=o-${suffix}&direction=asc&first=${first}&max=3`);
      seen.push(...page.map((e) => e.sessionId));
      if (page.length < 3) break;
      await db('events').insert({ time: db.raw(`now() - interval '200 minutes'`), type: 'LOGIN', session_id: 'older', client_id: `o-${suffix}` });
    }
    expect(seen.filter((s) => s.startsWith('old-'))).toEqual(names);
  });

  it('a sort a list does not offer, or a direction that is none, is a 400', async () => {
    for (const path of ['/users?sort=password', '/users?sort=email&direction=up', '/clients?sort=secret', '/events?sort=type', '/admin-events?direction=sideways']) {
      const res = await fetch(`${h.url}/auth/admin/realms/public${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect([path, res.status]).toEqual([path, 400]);
    }
  });
});

/** The plans of the statements `run` sends. */
async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
  const statements: { sql: string; bindings: readonly unknown[] }[] = [];
  const capture = (q: { sql: string; bindings?: readonly unknown[] }) => void statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
  db.on('query', capture);
  try {
    await run();
  } finally {
    db.off('query', capture);
  }
  const plans: string[] = [];
  for (const s of statements) {
    const { rows } = await db.raw<{ rows: { 'QUERY PLAN': string }[] }>(`EXPLAIN ${s.sql.replace(/\$\d+/g, '?')}`, s.bindings as Knex.RawBinding[]);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  return plans;
}
const indexConditions = (plan: string) =>
  plan
    .split('\n')
    .filter((l) => l.includes('Index Cond'))
    .join('\n');

describe('searches', () => {
  it('users match by part of their username, address, first or last name, case aside; `%` and `_` are taken literally', async () => {
    await h.cli('users', 'create', `Zed_${suffix}`, '--password', 'a long enough password', '--email', `Zed.Quist-${suffix}@Example.com`, '--name', 'Zed Quist');
    const names = async (q: string) => (await admin<{ username: string }[]>(`/users?${q}`)).map((u) => u.username);
    expect(await names(`search=QUIST-${suffix.toUpperCase()}`)).toEqual([`Zed_${suffix}`]);
    expect(await names(`search=zed_${suffix}`)).toEqual([`Zed_${suffix}`]);
    expect(await names(`search=zed%25${suffix}`)).toEqual([]);
    expect(await names(`username=zed_${suffix}&exact=true`)).toEqual([`Zed_${suffix}`]);
    expect(await names(`email=quist-${suffix}@example`)).toEqual([`Zed_${suffix}`]);
    expect(await admin<number>(`/users/count?search=quist-${suffix}`)).toBe(1);
  });

  it('a search for a part of a name finds its candidates through one trigram index over the four columns, not four scans OR-ed; an exact username through a B-tree', async () => {
    // Enough users that reading them all costs more than any index.
    await db.raw(`INSERT INTO users (username, password_hash, email, first_name, last_name)
      SELECT 'bulk-' || i || '-${suffix}', '!', 'bulk' || i || '@example.net', 'First' || (i % 300), 'Last' || (i % 700) FROM generate_series(1, 20000) AS i ON CONFLICT DO NOTHING`);
    // As autovacuum leaves it: GIN's pending entries merged into the index, statistics taken.
    await db.raw('VACUUM ANALYZE users');
    const users = new UsersRepository(db);
    const [plan] = await plansOf(() => users.search({ search: `bulk-12345-${suffix}`, max: 20 }));
    expect(plan!.match(/Bitmap Index Scan on (\w+)/g)).toEqual(['Bitmap Index Scan on users_search_trgm']);
    expect((await users.search({ search: `BULK-12345-${suffix}`, max: 20 })).map((u) => u.username)).toEqual([`bulk-12345-${suffix}`]);
    expect((await users.search({ search: 'bulk12345@', max: 20 })).map((u) => u.username)).toEqual([`bulk-12345-${suffix}`]);
    // The joined columns only propose: a term spanning two of them matches no user.
    expect(await users.search({ search: `${suffix} bulk12345`, max: 20 })).toEqual([]);
    // An exact username, case aside, is one B-tree descent.
    const [exact] = await plansOf(() => users.search({ username: `BULK-12345-${suffix}`, exact: true, max: 20 }));
    expect(exact).toContain('Index Scan using users_lower_username');
    expect((await users.search({ username: `BULK-12345-${suffix}`, exact: true, max: 20 })).map((u) => u.username)).toEqual([`bulk-12345-${suffix}`]);
  });

  it('clients match by part of their client id', async () => {
    const c = await h.cli<{ client_id: string }>('clients', 'create', '--id', `Scale_${suffix}_App`, '--name', 'scale', '--grants', 'client_credentials', '--scopes', 'openid');
    const ids = async (q: string) => (await admin<{ clientId: string }[]>(`/clients?${q}`)).map((x) => x.clientId);
    expect(await ids(`clientId=scale_${suffix}&search=true`)).toEqual([c.client_id]);
    expect(await ids(`clientId=scale%25${suffix}&search=true`)).toEqual([]);
    expect(await ids(`clientId=${c.client_id}`)).toEqual([c.client_id]);
  });
});

describe('counting users', () => {
  const exact = async () => Number((await db('users').whereNull('service_account_client_id').count({ n: '*' }))[0]!.n);
  const inOrganization = async (id: string) => Number((await db('users').whereNull('service_account_client_id').where('organization_id', id).count({ n: '*' }))[0]!.n);

  it('the count of every user, and of an organization, reads running totals, not the users table', async () => {
    const repo = new UsersRepository(db);
    const statements: { sql: string; bindings: readonly unknown[] }[] = [];
    const capture = (q: { sql: string; bindings?: readonly unknown[] }) => void statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.on('query', capture);
    try {
      await repo.count({});
      await repo.count({ search: '*' });
      await repo.count({ organizationId: randomUUID() });
    } finally {
      db.off('query', capture);
    }
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const s of statements) {
      const { rows } = await db.raw<{ rows: { 'QUERY PLAN': unknown }[] }>(`EXPLAIN (FORMAT JSON) ${s.sql.replace(/\$\d+/g, '?')}`, s.bindings as Knex.RawBinding[]);
      expect(JSON.stringify(rows[0]!['QUERY PLAN'])).not.toContain('"Relation Name":"users"');
    }
  });

  it('the counts follow users created, moved between organizations and deleted, one at a time or many per statement; service accounts are not counted', async () => {
    const [org] = await db('organizations')
      .insert({ name: `Count ${suffix}`, alias: `count-${suffix}` })
      .returning<{ id: string }[]>('id');
    const orgId = org!.id;
    const scoped = new UsersRepository(db);
    await h.cli('users', 'create', `count-one-${suffix}`, '--password', 'a long enough password');
    await h.cli('clients', 'create', '--id', `count-sa-${suffix}`, '--name', 'count', '--grants', 'client_credentials', '--scopes', 'openid');
    await db('users').insert(Array.from({ length: 5 }, (_, i) => ({ username: `count-many-${suffix}-${i}`, password_hash: '!', organization_id: i < 3 ? orgId : null })));
    expect(await admin<number>('/users/count')).toBe(await exact());
    expect(await scoped.count({ organizationId: orgId })).toBe(3);
    await db('users').where('username', `count-many-${suffix}-4`).update({ organization_id: orgId });
    await db('users').where('username', `count-many-${suffix}-0`).del();
    expect(await scoped.count({ organizationId: orgId })).toBe(await inOrganization(orgId));
    expect(await admin<number>('/users/count')).toBe(await exact());
    await db('organizations').where('id', orgId).del();
    expect(await scoped.count({ organizationId: orgId })).toBe(0);
    expect(await admin<number>('/users/count')).toBe(await exact());
    expect(await admin<number>(`/users/count?search=count-many-${suffix}`)).toBe(4);
  });
});

describe('event filters', () => {
  it('user events by IP address, admin events by the acting user and by resource path are found through an index on what they filter by, not by reading every event', async () => {
    // Enough events, from many addresses, users and paths, that reading them all costs more than any
    // index; the same ones in every run (ANALYZE reads them all), so the planner's estimates, and the
    // plans, do not vary from run to run with random identifiers.
    await db.raw(`INSERT INTO events (time, type, client_id, ip_address)
      SELECT now() - make_interval(secs => i), 'CLIENT_LOGIN', 'c-' || (i % 50), '10.' || (i % 200) || '.' || (i % 250) || '.1' FROM generate_series(1, 20000) AS i`);
    await db.raw(`INSERT INTO admin_events (time, operation_type, resource_type, resource_path, auth_user_id)
      SELECT now() - make_interval(secs => i), 'UPDATE', 'USER', 'users/' || md5('path' || i)::uuid, md5('user' || i)::uuid::text FROM generate_series(1, 20000) AS i`);
    await db.raw('ANALYZE events, admin_events');
    const events = new EventsRepository(db);
    const [byIp] = await plansOf(() => events.userEvents({ ipAddress: '192.0.2.7', max: 10 }));
    expect(indexConditions(byIp!)).toContain('ip_address');
    const [byUser] = await plansOf(() => events.adminEvents({ authUser: randomUUID(), max: 10 }));
    expect(indexConditions(byUser!)).toContain('auth_user_id');
    const [byPath] = await plansOf(() => events.adminEvents({ resourcePath: 'users/0a1*', max: 10 }));
    expect(indexConditions(byPath!)).toContain('resource_path');
  });

  it('the filters find what they found: events by IP address, admin events by acting user and by resource path with `*`', async () => {
    await db('events').insert([
      { time: db.raw('now()'), type: 'LOGIN', ip_address: `192.0.2.${suffix.length}`, session_id: `ip-${suffix}` },
      { time: db.raw('now()'), type: 'LOGIN', ip_address: '198.51.100.1', session_id: `other-${suffix}` },
    ]);
    const actor = randomUUID();
    await db('admin_events').insert([
      { time: db.raw('now()'), operation_type: 'UPDATE', resource_type: 'USER', resource_path: `users/${suffix}-a`, auth_user_id: actor },
      { time: db.raw('now()'), operation_type: 'UPDATE', resource_type: 'USER', resource_path: `users/${suffix}_b`, auth_user_id: randomUUID() },
      { time: db.raw('now()'), operation_type: 'UPDATE', resource_type: 'USER', resource_path: `clients/${suffix}-c`, auth_user_id: actor },
    ]);
    const events = new EventsRepository(db);
    expect((await events.userEvents({ ipAddress: `192.0.2.${suffix.length}` })).map((e) => e.sessionId)).toEqual([`ip-${suffix}`]);
    expect((await events.adminEvents({ authUser: actor })).map((e) => e.resourcePath).sort()).toEqual([`clients/${suffix}-c`, `users/${suffix}-a`]);
    expect((await events.adminEvents({ resourcePath: `users/${suffix}*` })).map((e) => e.resourcePath).sort()).toEqual([`users/${suffix}-a`, `users/${suffix}_b`]);
    expect((await events.adminEvents({ resourcePath: `users/${suffix}_*` })).map((e) => e.resourcePath)).toEqual([`users/${suffix}_b`]);
  });
});

import { randomBytes } from 'node:crypto';
import { eventually, postForm } from '@hush/testing';
import { createDb } from '../src/db/knex.js';
import { basic, bootstrapAdmin, startIdentity, type Harness } from './harness.js';

/**
 * Audit events through HTTP: written in batches yet none lost when the app closes, switched by
 * the realm's events settings, and never holding a secret or password.
 */

const suffix = randomBytes(3).toString('hex');

async function withIdentity(overrides: Record<string, string>, use: (h: Harness, admin: (method: string, path: string, body?: unknown) => Promise<Response>) => Promise<void>) {
  const h = await startIdentity(overrides);
  try {
    const token = await bootstrapAdmin(h, `https://s-${suffix}.example.com/api/v1`);
    await use(h, (method, path, body) =>
      fetch(`${h.url}/auth/admin/realms/public${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
  } finally {
    await h.close();
  }
}

/** Every stored event row, as text, read straight from the database. */
async function storedEvents(h: Harness): Promise<{ events: { type: string; client_id: string | null }[]; text: string }> {
  const db = createDb(h.config.DATABASE_URL, 1);
  try {
    const events: { type: string; client_id: string | null }[] = await db('events').select('*');
    const admin: unknown[] = await db('admin_events').select('*');
    return { events, text: JSON.stringify([events, admin]) };
  } finally {
    await db.destroy();
  }
}

it('when the app closes right after many token requests, then every CLIENT_LOGIN is stored', async () => {
  await withIdentity({}, async (h) => {
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'burst', '--grants', 'client_credentials', '--scopes', 'openid');
    const tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basic(c.client_id, c.client_secret) })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await h.identity.close();
    const { events } = await storedEvents(h);
    expect(events.filter((e) => e.type === 'CLIENT_LOGIN').length).toBeGreaterThanOrEqual(40);
  });
});

it('the settings switch what is recorded: events off records none, a type list records only those', async () => {
  await withIdentity({}, async (h, admin) => {
    expect(await (await admin('GET', '/events/config')).json()).toMatchObject({
      eventsEnabled: true,
      adminEventsEnabled: true,
      adminEventsDetailsEnabled: true,
      eventsExpiration: 2592000,
    });
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'switch', '--grants', 'client_credentials', '--scopes', 'openid');
    const login = (secret: string) => postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: secret });

    expect((await admin('PUT', '/events/config', { eventsEnabled: false })).status).toBe(204);
    await login(c.client_secret);
    expect((await admin('PUT', '/events/config', { eventsEnabled: true, enabledEventTypes: ['CLIENT_LOGIN_ERROR'] })).status).toBe(204);
    await login(c.client_secret);
    await login('wrong');
    await h.identity.close();
    const { events } = await storedEvents(h);
    expect(events.filter((e) => e.client_id === c.client_id).map((e) => e.type)).toEqual(['CLIENT_LOGIN_ERROR']);
  });
});

it('no stored event carries a client secret or password of the admin calls, sign-ins or token requests', async () => {
  await withIdentity({ ADMIN_CLIENT_SECRET: `admin-${randomBytes(24).toString('hex')}` }, async (h, admin) => {
    const given = `given-${randomBytes(24).toString('hex')}`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const created = await admin('POST', '/clients', { clientId: `audit-${suffix}`, secret: given, serviceAccountsEnabled: true, attributes: { 'client.secret': given } });
    const id = created.headers.get('location')!.split('/').pop()!;
    const rotated = (await (await admin('POST', `/clients/${id}/client-secret`, {})).json()) as { value: string };
    await admin('PUT', `/clients/${id}`, { secret: rotated.value, description: 'with a secret in the body' });
    const user = await admin('POST', '/users', { username: `audit-${suffix}`, credentials: [{ type: 'password', value: password, temporary: false }] });
    const userId = user.headers.get('location')!.split('/').pop()!;
    await admin('PUT', `/users/${userId}/reset-password`, { type: 'password', value: `${password}-2`, temporary: false });
    await admin('PUT', `/users/${userId}`, { credentials: [{ type: 'password', value: `${password}-3`, temporary: false }] });
    await postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: `audit-${suffix}`, client_secret: rotated.value });
    await postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials' }, { authorization: basic(`audit-${suffix}`, given) });
    await h.identity.close();
    const { events, text } = await storedEvents(h);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['CLIENT_LOGIN', 'CLIENT_LOGIN_ERROR', 'UPDATE_PASSWORD']));
    expect(text).toContain(`audit-${suffix}`);
    for (const s of [given, rotated.value, password, h.env['ADMIN_CLIENT_SECRET']!]) {
      expect(text).not.toContain(s);
      expect(h.logs.join('\n')).not.toContain(s);
    }
  });
});

it('events past the retention period go at the next sweep', async () => {
  await withIdentity({}, async (h, admin) => {
    expect((await admin('PUT', '/events/config', { eventsExpiration: 1 })).status).toBe(204);
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'old', '--grants', 'client_credentials', '--scopes', 'openid');
    await postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret });
    // Stored (in a batch, off the request's path), then more than its 1 s of retention old.
    await eventually(async () => ((await storedEvents(h)).events.some((e) => e.client_id === c.client_id) ? true : undefined));
    await new Promise((r) => setTimeout(r, 1100));
    await h.identity.sweep();
    expect((await storedEvents(h)).events.some((e) => e.client_id === c.client_id)).toBe(false);
  });
});

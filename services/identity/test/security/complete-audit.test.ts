import { randomBytes } from 'node:crypto';
import { Counter, Registry } from 'prom-client';
import { capturingLogger, createTestDatabase, postForm, TcpProxy, type TestDatabase } from '@hush/testing';
import { createDb, migrateLatest, type Db } from '../../src/db/knex.js';
import { EventRecorder, EventsRepository, type EventsConfig, type UserEvent } from '../../src/events/index.js';
import { startIdentity, type Harness } from '../harness.js';
import { adminCallers, type AdminCallers } from './admin-callers.js';

/**
 * A complete audit log that cannot be silenced:
 * - an admin event is written in the transaction of the change it records: there the moment the
 *   call returns, and a change whose event cannot be written does not happen;
 * - a user event the database cannot take (a NUL byte from an anonymous request, a lone surrogate,
 *   a huge field) is stored sanitised, and one the database refuses anyway is set aside alone,
 *   counted in hush_events_unwritten_total and logged once: it never holds back the others;
 * - while the database is away, events wait (bounded) and the failure is logged once per
 *   interval, not on every retry; what is buffered is written at shutdown.
 */

const suffix = randomBytes(3).toString('hex');
let made = 0;
const unique = () => `${suffix}-${++made}`;

type AdminEventRow = { operationType: string; resourcePath: string };

describe('admin events are written with the change they record', () => {
  let h: Harness;
  let a: AdminCallers;
  let db: Db;
  beforeAll(async () => {
    h = await startIdentity();
    a = await adminCallers(h);
    db = createDb(h.config.DATABASE_URL, 1);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await h?.close();
  });

  const eventsOf = async (path: string) => (await a.call(a.admin, 'GET', `/admin-events?resourcePath=${encodeURIComponent(path)}&max=-1`)).body as AdminEventRow[];

  it('each change’s event is there the moment the call returns: creations, updates, deletions of users and clients', async () => {
    for (let i = 0; i < 8; i++) {
      const user = a.idOf(await a.call(a.admin, 'POST', '/users', { username: `seen-${unique()}` }));
      expect((await eventsOf(`users/${user}`)).map((e) => e.operationType)).toEqual(['CREATE']);
      expect((await a.call(a.admin, 'DELETE', `/users/${user}`, {})).status).toBe(204);
      expect((await eventsOf(`users/${user}`)).map((e) => e.operationType)).toEqual(['DELETE', 'CREATE']);

      const client = a.idOf(await a.call(a.admin, 'POST', '/clients', { clientId: `seen-${unique()}`, serviceAccountsEnabled: true }));
      expect((await a.call(a.admin, 'PUT', `/clients/${client}`, { description: 'changed' })).status).toBe(204);
      expect((await a.call(a.admin, 'DELETE', `/clients/${client}`, {})).status).toBe(204);
      expect((await eventsOf(`clients/${client}`)).map((e) => e.operationType)).toEqual(['DELETE', 'UPDATE', 'CREATE']);
    }
  });

  it('many changes at once: each one has its event when its call returns', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const id = a.idOf(await a.call(a.admin, 'POST', '/users', { username: `burst-${unique()}` }));
        expect((await eventsOf(`users/${id}`)).map((e) => e.operationType)).toEqual(['CREATE']);
        return id;
      }),
    );
    expect(new Set(ids).size).toBe(20);
  });

  it('a change whose event cannot be written does not happen: 503, and the user is still there, as it was', async () => {
    const user = a.idOf(await a.call(a.admin, 'POST', '/users', { username: `kept-${unique()}`, email: `kept-${unique()}@example.com` }));
    const before = (await a.call(a.admin, 'GET', `/users/${user}`)).body;
    // The audit table refuses this user's events from now on (a full disk, a broken replica...).
    await db.raw(`ALTER TABLE admin_events ADD CONSTRAINT refuse_${suffix} CHECK (resource_path NOT LIKE 'users/${user}%') NOT VALID`);
    try {
      for (const [method, path, body] of [
        ['DELETE', `/users/${user}`, {}],
        ['PUT', `/users/${user}`, { enabled: false, email: 'elsewhere@example.com' }],
        ['PUT', `/users/${user}/reset-password`, { type: 'password', value: 'a new password nobody audited', temporary: false }],
        ['POST', `/users/${user}/logout`, {}],
      ] as const) {
        const answer = await a.call(a.admin, method, path, body);
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 503 });
      }
      expect((await a.call(a.admin, 'GET', `/users/${user}`)).body).toEqual(before);
    } finally {
      await db.raw(`ALTER TABLE admin_events DROP CONSTRAINT refuse_${suffix}`);
    }
    expect(await eventsOf(`users/${user}`)).toHaveLength(1);
    expect((await a.call(a.admin, 'DELETE', `/users/${user}`, {})).status).toBe(204);
  });
});

describe('user events from anonymous requests cannot silence the log', () => {
  it('after token requests with client_id=%00 (and invalid UTF-8, a huge id), later user and admin events are all stored, and nothing is logged about events', async () => {
    const h = await startIdentity();
    try {
      const a = await adminCallers(h);
      const tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
      // As curl sends them: a NUL, invalid UTF-8 (a surrogate's bytes, a lone 0xFF), a huge id.
      for (const clientId of ['%00', 'a%00b', '%ED%A0%80', '%FF', 'x'.repeat(20_000)]) {
        const res = await fetch(tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=${clientId}&client_secret=whatever`,
        });
        expect({ clientId: clientId.slice(0, 20), status: res.status }).toEqual({ clientId: clientId.slice(0, 20), status: expect.any(Number) });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      const good = await a.clientHolding('');
      const user = a.idOf(await a.call(a.admin, 'POST', '/users', { username: `after-${unique()}` }));
      expect(((await a.call(a.admin, 'GET', `/admin-events?resourcePath=users/${user}`)).body as AdminEventRow[]).length).toBe(1);
      // Closing writes what is buffered: every user event up to now.
      await h.identity.close();
      const db = createDb(h.config.DATABASE_URL, 1);
      try {
        const logins: { type: string; client_id: string }[] = await db('events').where({ client_id: good.clientId }).select('type', 'client_id');
        expect(logins.map((e) => e.type)).toContain('CLIENT_LOGIN');
      } finally {
        await db.destroy();
      }
      expect(h.logs.filter((line) => /events? (write|not written|dropped)/i.test(line))).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('an event the database refuses is set aside alone: the others are stored, it is counted in hush_events_unwritten_total{reason="rejected"}', async () => {
    const h = await startIdentity();
    const db = createDb(h.config.DATABASE_URL, 1);
    try {
      const a = await adminCallers(h);
      const tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
      // This client id's events are refused by the table itself, whatever the recorder does to them.
      await db.raw(`ALTER TABLE events ADD CONSTRAINT refuse_${suffix} CHECK (client_id IS DISTINCT FROM 'refused-${suffix}') NOT VALID`);
      const good = await a.clientHolding('');
      await Promise.all([
        ...Array.from({ length: 5 }, () => postForm(tokenUrl, { grant_type: 'client_credentials', client_id: `refused-${suffix}`, client_secret: 'x' })),
        ...Array.from({ length: 5 }, () => postForm(tokenUrl, { grant_type: 'client_credentials', client_id: good.clientId, client_secret: good.secret })),
      ]);
      await h.identity.close();
      const stored: { type: string }[] = await db('events').where({ client_id: good.clientId }).select('type');
      expect(stored.filter((e) => e.type === 'CLIENT_LOGIN')).toHaveLength(6);
      const metrics = await (await fetch(`${h.managementUrl}/metrics`)).text();
      expect(metrics.split('\n').filter((line) => line.startsWith('hush_events_unwritten_total'))).toEqual(['hush_events_unwritten_total{reason="rejected",service="identity"} 5']);
      expect(h.logs.filter((line) => line.includes('event refused by the database'))).toHaveLength(1);
    } finally {
      await db.destroy();
      await h.close();
    }
  });
});

describe('the user event recorder, against a real PostgreSQL', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: Db;
  let direct: Db;
  const config: EventsConfig = { eventsEnabled: true, adminEventsEnabled: true, adminEventsDetailsEnabled: true, enabledEventTypes: [], eventsExpiration: null };

  beforeAll(async () => {
    database = await createTestDatabase('events');
    direct = createDb(database.url, 2);
    await migrateLatest(direct);
    proxy = new TcpProxy(database.url);
    await proxy.start();
    db = createDb(proxy.via(database.url), 2, { timeoutMs: 2000 });
  });
  afterAll(async () => {
    await db?.destroy();
    await direct?.destroy();
    await proxy?.stop();
    await database?.drop();
  });

  /** A recorder flushed by hand (no timers), its counter on its own registry, its warnings captured. */
  function recorder(options: { maxBuffered?: number; maxBatch?: number } = {}) {
    const registry = new Registry();
    const unwritten = new Counter({ name: 'hush_events_unwritten_total', help: 'test', labelNames: ['reason'], registers: [registry] });
    const { logger, logs } = capturingLogger('events-test');
    const events = new EventRecorder(new EventsRepository(db), config, logger, { ...options, unwritten, flushMs: 3_600_000, logIntervalMs: 3_600_000 });
    const counted = async () => Object.fromEntries((await unwritten.get()).values.map((v) => [v.labels['reason'], v.value]));
    return { events, logs, counted };
  }
  const login = (clientId: string, details?: Record<string, string>): Omit<UserEvent, 'time'> => ({ type: 'CLIENT_LOGIN', clientId, ...(details ? { details } : {}) });
  const rowsOf = async (prefix: string): Promise<{ client_id: string; error: string | null; details: Record<string, string> | null }[]> =>
    direct('events').whereLike('client_id', `${prefix}%`).select('client_id', 'error', 'details').orderBy('id');

  it('NUL bytes, lone surrogates and oversized fields are stored sanitised, in the same batch as the others', async () => {
    const { events, counted } = recorder();
    const tag = `clean-${unique()}`;
    events.user(login(`${tag}-a\u0000b`, { scope: 'x\u0000y', bad: '\udc00z', huge: 'h'.repeat(100_000) }));
    events.user({ ...login(`${tag}-\ud800`), error: `e\u0000${'e'.repeat(10_000)}` });
    events.user(login(`${tag}-${'c'.repeat(10_000)}`));
    events.user(login(`${tag}-plain`));
    await events.flush();
    const rows = await rowsOf(tag);
    expect(rows).toHaveLength(4);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('\\u0000');
    expect(text).not.toMatch(/\\ud[89a-f]/i);
    expect(rows[0]).toMatchObject({ client_id: `${tag}-a\ufffdb`, details: { scope: 'x\ufffdy', bad: '\ufffdz' } });
    expect(rows[0]!.details!['huge']!.length).toBeLessThanOrEqual(1024);
    expect(rows[1]!.client_id).toBe(`${tag}-\ufffd`);
    expect(rows[1]!.error!.length).toBeLessThanOrEqual(255);
    expect(rows[2]!.client_id.length).toBeLessThanOrEqual(255);
    expect(rows[3]!.client_id).toBe(`${tag}-plain`);
    expect(await counted()).toEqual({});
  });

  it('a batch the database refuses is split: only the refused event is left out, counted once and logged once, however often the recorder flushes', async () => {
    const { events, logs, counted } = recorder();
    const tag = `split-${unique()}`;
    await direct.raw(`ALTER TABLE events ADD CONSTRAINT refuse_split CHECK (client_id IS DISTINCT FROM '${tag}-poison') NOT VALID`);
    try {
      for (let i = 0; i < 10; i++) events.user(login(`${tag}-${i}`));
      events.user(login(`${tag}-poison`));
      for (let i = 10; i < 20; i++) events.user(login(`${tag}-${i}`));
      for (let i = 0; i < 10; i++) await events.flush();
      events.user(login(`${tag}-poison`));
      for (let i = 0; i < 10; i++) await events.flush();
    } finally {
      await direct.raw(`ALTER TABLE events DROP CONSTRAINT refuse_split`);
    }
    expect((await rowsOf(tag)).map((r) => r.client_id)).toEqual(Array.from({ length: 20 }, (_, i) => `${tag}-${i}`));
    expect(await counted()).toEqual({ rejected: 2 });
    expect(logs.filter((line) => line.includes('event refused by the database'))).toHaveLength(1);
  });

  it('while the database is away, events wait and the failure is logged once; they are written when it is back, the oldest beyond the bound dropped and counted', async () => {
    const { events, logs, counted } = recorder({ maxBuffered: 30 });
    const tag = `outage-${unique()}`;
    await proxy.stop();
    try {
      for (let i = 0; i < 35; i++) events.user(login(`${tag}-${String(i).padStart(2, '0')}`));
      for (let i = 0; i < 10; i++) await events.flush();
    } finally {
      await proxy.start();
    }
    expect(logs.filter((line) => line.includes('events not written yet'))).toHaveLength(1);
    await events.flush();
    expect((await rowsOf(tag)).map((r) => r.client_id)).toEqual(Array.from({ length: 30 }, (_, i) => `${tag}-${String(i + 5).padStart(2, '0')}`));
    expect(await counted()).toEqual({ overflow: 5 });
  });

  it('close() during a write (a refused batch being split) waits for it: when close() returns, every event the database takes is stored', async () => {
    const { events, counted } = recorder();
    const tag = `closing-${unique()}`;
    await direct.raw(`ALTER TABLE events ADD CONSTRAINT refuse_closing CHECK (client_id IS DISTINCT FROM '${tag}-poison') NOT VALID`);
    let stored: string[];
    try {
      for (let i = 0; i < 5; i++) events.user(login(`${tag}-poison`));
      for (let i = 0; i < 6; i++) events.user(login(`${tag}-${i}`));
      // The interval's flush: it takes the events out of the buffer and is still writing them.
      const writing = events.flush();
      await events.close();
      stored = (await rowsOf(tag)).map((r) => r.client_id);
      await writing;
    } finally {
      await direct.raw(`ALTER TABLE events DROP CONSTRAINT refuse_closing`);
    }
    expect(stored).toEqual(Array.from({ length: 6 }, (_, i) => `${tag}-${i}`));
    expect(await counted()).toEqual({ rejected: 5 });
  });

  it('close() writes what is buffered, setting a refused event aside; what is recorded after it is counted, not written', async () => {
    const { events, counted } = recorder();
    const tag = `close-${unique()}`;
    await direct.raw(`ALTER TABLE events ADD CONSTRAINT refuse_close CHECK (client_id IS DISTINCT FROM '${tag}-poison') NOT VALID`);
    try {
      events.user(login(`${tag}-1`));
      events.user(login(`${tag}-poison`));
      events.user(login(`${tag}-2`));
      await events.close();
      events.user(login(`${tag}-late`));
    } finally {
      await direct.raw(`ALTER TABLE events DROP CONSTRAINT refuse_close`);
    }
    expect((await rowsOf(tag)).map((r) => r.client_id)).toEqual([`${tag}-1`, `${tag}-2`]);
    expect(await counted()).toEqual({ rejected: 1, after_close: 1 });
  });
});

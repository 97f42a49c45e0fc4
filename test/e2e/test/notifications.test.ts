import { randomBytes } from 'node:crypto';
import type { Received } from '@hush/testing';
import { hashKey } from '../../../services/secrets/src/secrets/keys.js';
import { eventually, RedisProxy, startSystem, type System } from './system.js';

/**
 * A creator's notifications end to end: share with `notify` → the reveal, burn or sweep statement
 * writes the outbox row → BullMQ (through a proxy to the real Redis, which the test cuts) → mailer
 * → a real SMTP server in this process. Each arrives once, and holds no secret, key or link.
 */
interface Shared {
  value: string;
  secret_key: string;
  metadata_key: string;
  to: string;
}

async function share(system: System, auth: string, event: string, ttl = 600): Promise<Shared> {
  const to = `notify-${event}-${randomBytes(4).toString('hex')}@example.com`;
  const value = `value-${randomBytes(8).toString('hex')}`;
  const res = await system.secrets.http
    .post('/api/v1/share')
    .set('Authorization', auth)
    .type('form')
    .send({ secret: value, ttl: String(ttl), notify: event, notify_email: to });
  expect(res.status).toBe(200);
  return { ...(res.body as { secret_key: string; metadata_key: string }), value, to };
}

/** reveal, burn and expiry of three secrets; returns them once every event has happened. */
async function causeEvents(system: System, auth: string): Promise<Record<'revealed' | 'burned' | 'expired', Shared>> {
  const revealed = await share(system, auth, 'revealed');
  const burned = await share(system, auth, 'burned');
  const expired = await share(system, auth, 'expired', 600);
  const read = await system.secrets.http.post(`/api/v1/secret/${revealed.secret_key}`);
  expect(read.status).toBe(200);
  const burn = await system.secrets.http.post(`/api/v1/private/${burned.metadata_key}/burn`).set('Authorization', auth);
  expect(burn.status).toBe(200);
  // Its lifetime ended in PostgreSQL, whose clock the service compares with, rather than waited out.
  const { db } = system.secrets;
  const ended = db.raw(`now() - interval '1 second'`);
  await db('secrets').where('secret_hash', hashKey(expired.secret_key)).update({ expires_at: ended });
  await db('metadata').where('metadata_hash', hashKey(expired.metadata_key)).update({ secret_expires_at: ended });
  await system.secrets.secrets.sweep();
  return { revealed, burned, expired };
}

function expectNothingThatOpens(mail: Received, s: Shared, system: System): void {
  const whole = [mail.mail.subject, mail.mail.text, mail.mail.html === false ? '' : mail.mail.html].join('\n');
  for (const clear of [s.value, s.secret_key, s.metadata_key, '/secret/', '/private/', system.secrets.url, 'http']) expect(whole).not.toContain(clear);
  expect(whole).toContain(s.metadata_key.slice(0, 6));
}

const outboxEmpty = (system: System) => eventually(async () => ((await system.secrets.db('outbox').select('id')).length === 0 ? true : undefined), 30_000);

async function expectEachOnce(system: System, shared: Record<string, Shared>): Promise<void> {
  for (const [event, s] of Object.entries(shared)) {
    const [mail] = await system.smtp.waitFor(s.to, 1, 30_000);
    expect(mail?.mail.subject).toMatch(event === 'revealed' ? /opened and read/ : event === 'burned' ? /burned/ : /expired/);
    expectNothingThatOpens(mail as Received, s, system);
  }
  // Every outcome recorded (the outbox is empty), and a while later still one e-mail each.
  await outboxEmpty(system);
  await new Promise((r) => setTimeout(r, 1000));
  for (const s of Object.values(shared)) expect(system.smtp.to(s.to)).toHaveLength(1);
}

describe('notifications to the creator', () => {
  const proxy = new RedisProxy();
  let system: System;
  let auth: string;
  beforeAll(async () => {
    await proxy.start();
    system = await startSystem({ redisUrl: proxy.url, secretsEnv: { TTL_MIN: '1', SWEEP_INTERVAL: '3600', PASSPHRASE_MAX_ATTEMPTS: '2' } });
    ({ auth } = await system.secrets.account());
  });
  afterAll(async () => {
    await system.close();
    await proxy.stop();
  });

  it('of a reveal, a burn and an expiry arrive once each, with no secret or link in them, and the receipt says so', async () => {
    const shared = await causeEvents(system, auth);
    await expectEachOnce(system, shared);
    for (const [event, s] of Object.entries(shared)) {
      const receipt = await system.secrets.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', auth);
      expect(receipt.body).toMatchObject({ notify: [event], notify_status: { [event]: 'sent' } });
    }
  }, 60_000);

  it('arrive once each when Redis is gone while the events happen and comes back later', async () => {
    await proxy.stop();
    const shared = await causeEvents(system, auth);
    await new Promise((r) => setTimeout(r, 500));
    for (const s of Object.values(shared)) expect(system.smtp.to(s.to)).toHaveLength(0);
    await proxy.start();
    await expectEachOnce(system, shared);
  }, 90_000);

  it('of a reveal raced by many readers arrives once', async () => {
    const s = await share(system, auth, 'revealed');
    const reads = await Promise.all(Array.from({ length: 20 }, () => system.secrets.http.post(`/api/v1/secret/${s.secret_key}`)));
    expect(reads.filter((r) => r.status === 200)).toHaveLength(1);
    await expectEachOnce(system, { revealed: s });
  }, 40_000);

  it('of a burn by too many wrong passphrases arrives once', async () => {
    const to = `notify-guessed-${randomBytes(4).toString('hex')}@example.com`;
    const res = await system.secrets.http
      .post('/api/v1/share')
      .set('Authorization', auth)
      .type('form')
      .send({ secret: 'guarded', passphrase: 'right', notify: 'burned', notify_email: to });
    const s = { ...(res.body as { secret_key: string; metadata_key: string }), value: 'guarded', to };
    for (let i = 0; i < 2; i++) expect((await system.secrets.http.post(`/api/v1/secret/${s.secret_key}`).type('form').send({ passphrase: 'wrong' })).status).toBe(401);
    expect((await system.secrets.http.post(`/api/v1/secret/${s.secret_key}`).type('form').send({ passphrase: 'right' })).status).toBe(404);
    await expectEachOnce(system, { burned: s });
  }, 40_000);

  it('are not sent for an event not asked for', async () => {
    const s = await share(system, auth, 'burned');
    expect((await system.secrets.http.post(`/api/v1/secret/${s.secret_key}`)).status).toBe(200);
    await outboxEmpty(system);
    expect(system.smtp.to(s.to)).toHaveLength(0);
  }, 40_000);

  it('refuse an unknown event, and an account whose id is no address without notify_email, with a 400', async () => {
    const bad = await system.secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'x', notify: 'opened' });
    expect(bad.status).toBe(400);
    const noAddress = await system.secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'x', notify: 'revealed' });
    expect(noAddress.status).toBe(400);
    expect((noAddress.body as { code?: string; message?: string }).message ?? JSON.stringify(noAddress.body)).toMatch(/notify_email/);
  });
});

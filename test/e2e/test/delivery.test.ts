import { Queue } from 'bullmq';
import { MAIL_QUEUE } from '@hush/queue';
import { smtpReply } from '@hush/testing';
import { eventually, RedisProxy, startSystem, type System } from './system.js';

/**
 * Issue 4 end to end: share with a recipient → outbox → BullMQ → mailer → SMTP, on real
 * PostgreSQL, real Redis and a real SMTP server in this process.
 */
const VALUE = 'correct-horse-battery-staple-9431';

async function shareTo(system: System, recipient: string, extra: Record<string, string> = {}) {
  const { auth } = await system.secrets.account();
  const res = await system.secrets.http
    .post('/api/v1/share')
    .set('Authorization', auth)
    .type('form')
    .send({ secret: VALUE, recipient, ...extra });
  expect(res.status).toBe(200);
  return { ...(res.body as { secret_key: string; metadata_key: string; custid: string }), auth };
}

const metadata = async (system: System, s: { metadata_key: string; auth: string }) =>
  (await system.secrets.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', s.auth)).body as Record<string, unknown>;

describe('a share with a recipient', () => {
  let system: System;
  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(() => system.close());

  it('delivers exactly one e-mail whose text and HTML hold the link and not the value', async () => {
    const s = await shareTo(system, 'bob@example.com', { passphrase: 'tell-bob-by-phone' });
    const [mail] = await system.smtp.waitFor('bob@example.com');
    const link = `${system.secrets.url}/secret/${s.secret_key}`;
    expect(mail?.mail.text).toContain(link);
    expect(String(mail?.mail.html)).toContain(link);
    expect(mail?.mail.subject).toContain(s.custid);
    for (const part of [mail?.mail.text, String(mail?.mail.html), mail?.mail.subject]) {
      expect(part).not.toContain(VALUE);
      expect(part).not.toContain('tell-bob-by-phone');
    }
    expect(mail?.mail.text).toMatch(/passphrase/i);

    const m = await eventually(async () => {
      const body = await metadata(system, s);
      return body['delivery_status'] === 'sent' ? body : undefined;
    });
    expect(Number.isInteger(m['delivery_updated'])).toBe(true);
    expect(m['recipient']).toBe('bo*****@e*****.com');

    await new Promise((r) => setTimeout(r, 500));
    expect(system.smtp.to('bob@example.com')).toHaveLength(1);
  });

  it('no job, log line or e-mail holds the value', async () => {
    await shareTo(system, 'carol@example.com');
    await system.smtp.waitFor('carol@example.com');
    const logs = [...system.secrets.logs, ...system.mailerLogs].join('\n');
    expect(logs).not.toContain(VALUE);
    expect(logs).not.toContain('carol@example.com');
  });
});

describe('jobs carry no secret value', () => {
  it('the queued job holds its delivery id and a seal: never the value or passphrase, nor the link or address', async () => {
    const system = await startSystem({ startMailer: false });
    try {
      const s = await shareTo(system, 'dave@example.com', { passphrase: 'dave-passphrase' });
      const queue = new Queue(MAIL_QUEUE, { connection: { url: system.secrets.config.REDIS_URL }, prefix: system.secrets.config.QUEUE_PREFIX });
      try {
        const job = await eventually(async () => (await queue.getJobs(['waiting', 'delayed', 'active']))[0]);
        const serialized = JSON.stringify(job.data);
        expect(Object.keys(job.data as object).sort()).toEqual(['deliveryId', 'sealed', 'version']);
        expect(serialized).not.toContain(s.secret_key);
        expect(serialized).not.toContain('dave@example.com');
        expect(serialized).not.toContain(VALUE);
        expect(serialized).not.toContain('dave-passphrase');
        expect(job.opts.removeOnComplete).toBe(true);
      } finally {
        await queue.close();
      }
    } finally {
      await system.close();
    }
  });
});

describe('when Redis is unreachable', () => {
  it('the share still succeeds, and the e-mail goes out once Redis is back', async () => {
    const proxy = new RedisProxy();
    await proxy.start();
    const system = await startSystem({ redisUrl: proxy.url });
    try {
      await proxy.stop();
      const s = await shareTo(system, 'erin@example.com');
      expect((await metadata(system, s))['delivery_status']).toBe('queued');
      await new Promise((r) => setTimeout(r, 1000));
      expect(system.smtp.to('erin@example.com')).toHaveLength(0);

      await proxy.start(); // same port
      await system.smtp.waitFor('erin@example.com', 1, 30_000);
      await eventually(async () => ((await metadata(system, s))['delivery_status'] === 'sent' ? true : undefined), 30_000);
      expect(system.smtp.to('erin@example.com')).toHaveLength(1);
    } finally {
      await system.close();
      await proxy.stop();
    }
  }, 60_000);
});

describe('when SMTP fails', () => {
  it('a temporary failure is retried until the e-mail arrives', async () => {
    const system = await startSystem({ smtp: { onRcpt: (_a, attempt) => (attempt <= 2 ? smtpReply(451, 'try again later') : undefined) } });
    try {
      const s = await shareTo(system, 'frank@example.com');
      await system.smtp.waitFor('frank@example.com', 1, 20_000);
      expect(system.smtp.rcptAttempts('frank@example.com')).toBe(3);
      await eventually(async () => ((await metadata(system, s))['delivery_status'] === 'sent' ? true : undefined));
    } finally {
      await system.close();
    }
  }, 40_000);

  it('a permanent failure stops at once and shows failed in the metadata', async () => {
    const system = await startSystem({ smtp: { onRcpt: () => smtpReply(550, 'no such mailbox') } });
    try {
      const s = await shareTo(system, 'nobody@example.com');
      const m = await eventually(async () => {
        const body = await metadata(system, s);
        return body['delivery_status'] === 'failed' ? body : undefined;
      });
      expect(String(m['delivery_reason'])).not.toContain('nobody@example.com');
      expect(system.smtp.rcptAttempts('nobody@example.com')).toBe(1);
    } finally {
      await system.close();
    }
  });
});

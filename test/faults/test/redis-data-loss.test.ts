import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MAIL_QUEUE } from '@hush/queue';
import { eventually, smtpReply } from '@hush/testing';
import { startSystem, type System } from '../../e2e/test/system.js';

/**
 * Redis loses its data (no persistence, then a crash) while e-mails to recipients are queued and
 * not yet sent. Here that is every key under the system's own queue prefix deleted at once: the
 * same loss for this system, without touching the keys of tests running beside it.
 */

async function wipeQueueData(system: System): Promise<number> {
  const redis = new Redis(system.secrets.config.REDIS_URL);
  try {
    let deleted = 0;
    const stream = redis.scanStream({ match: `${system.secrets.config.QUEUE_PREFIX}:*`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>) {
      if (keys.length) deleted += await redis.del(...keys);
    }
    return deleted;
  } finally {
    redis.disconnect();
  }
}

async function share(system: System, auth: string, recipient: string) {
  const res = await system.secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'a value the e-mail never holds', recipient });
  expect(res.status).toBe(200);
  return { recipient, metadataKey: (res.body as { metadata_key: string }).metadata_key };
}

async function deliveryOf(system: System, auth: string, metadataKey: string) {
  const res = await system.secrets.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', auth);
  const body = res.body as { delivery_status?: string; delivery_reason?: string };
  return { status: body.delivery_status, reason: body.delivery_reason };
}

/** Waits until every e-mail request has left the outbox for the queue, and the jobs are there. */
async function allQueued(system: System, count: number): Promise<void> {
  const queue = new Queue(MAIL_QUEUE, { connection: { url: system.secrets.config.REDIS_URL }, prefix: system.secrets.config.QUEUE_PREFIX });
  try {
    await eventually(async () => {
      const unqueued = await system.secrets.db('outbox').whereNull('queued_at').count<{ n: string }[]>({ n: '*' });
      return Number(unqueued[0]?.n) === 0 && (await queue.getWaitingCount()) === count ? true : undefined;
    });
  } finally {
    await queue.close();
  }
}

const outboxRows = async (system: System) => Number((await system.secrets.db('outbox').count<{ n: string }[]>({ n: '*' }))[0]?.n);

describe('Redis loses its data while e-mails are queued', () => {
  it('every e-mail still arrives exactly once, and none stays queued', async () => {
    const system = await startSystem({ startMailer: false, secretsEnv: { MAIL_REQUEUE_AFTER: '1', MAIL_REQUEUE_LIMIT: '3' } });
    try {
      const { auth } = await system.secrets.account();
      const recipients = Array.from({ length: 8 }, (_, i) => `lost-${i}@example.com`);
      const shares = [];
      for (const recipient of recipients) shares.push(await share(system, auth, recipient));
      await allQueued(system, recipients.length);

      expect(await wipeQueueData(system)).toBeGreaterThan(0);
      await system.startMailer();

      for (const s of shares) {
        await eventually(async () => ((await deliveryOf(system, auth, s.metadataKey)).status === 'sent' ? true : undefined), 30_000);
      }
      // Longer than a reconciler period or two: a late re-queue would show as a second e-mail.
      await new Promise((r) => setTimeout(r, 3000));
      for (const recipient of recipients) expect(system.smtp.to(recipient)).toHaveLength(1);
      expect(system.secrets.logs.join('\n')).toContain('e-mail job lost from the queue; queued again');
      // One outage, one line (and its summary): not a line per job.
      const requeueLines = system.secrets.logs
        .filter((line) => line.includes('e-mail job lost from the queue; queued again'))
        .map((line) => JSON.parse(line) as { burst: string; count?: number });
      expect(requeueLines.map((l) => l.burst)).toEqual(['started', 'ended']);
      expect(requeueLines[1]?.count).toBeGreaterThanOrEqual(recipients.length);
      // The outcome is known: no copy of the addresses is left in the outbox.
      expect(await outboxRows(system)).toBe(0);
    } finally {
      await system.close();
    }
  }, 90_000);

  it('a job still being retried (SMTP 451) is never queued a second time by the reconciler', async () => {
    const system = await startSystem({
      smtp: { onRcpt: (_address, attempt) => (attempt <= 3 ? smtpReply(451, 'try again later') : undefined) },
      secretsEnv: { MAIL_REQUEUE_AFTER: '1', MAIL_REQUEUE_LIMIT: '3', MAIL_BACKOFF_MS: '400', MAIL_ATTEMPTS: '6' },
    });
    try {
      const { auth } = await system.secrets.account();
      const recipients = ['slow-0@example.com', 'slow-1@example.com', 'slow-2@example.com'];
      const shares = [];
      for (const recipient of recipients) shares.push(await share(system, auth, recipient));
      for (const s of shares) {
        await eventually(async () => ((await deliveryOf(system, auth, s.metadataKey)).status === 'sent' ? true : undefined), 30_000);
      }
      await new Promise((r) => setTimeout(r, 2500));
      for (const recipient of recipients) {
        expect(system.smtp.to(recipient)).toHaveLength(1);
        expect(system.smtp.rcptAttempts(recipient)).toBe(4);
      }
      expect(system.secrets.logs.join('\n')).not.toContain('lost from the queue');
      expect(await outboxRows(system)).toBe(0);
    } finally {
      await system.close();
    }
  }, 60_000);

  it('a delivery whose job keeps vanishing is marked failed with a reason after its re-queue budget', async () => {
    const system = await startSystem({ startMailer: false, secretsEnv: { MAIL_REQUEUE_AFTER: '1', MAIL_REQUEUE_LIMIT: '1' } });
    try {
      const { auth } = await system.secrets.account();
      const s = await share(system, auth, 'unlucky@example.com');
      await allQueued(system, 1);
      await wipeQueueData(system); // the reconciler queues it again (budget: one re-queue)
      await eventually(async () => ((await system.secrets.db('outbox').where('requeues', 1).first()) ? true : undefined), 15_000);
      await wipeQueueData(system); // lost again: no budget left

      const outcome = await eventually(async () => {
        const d = await deliveryOf(system, auth, s.metadataKey);
        return d.status === 'failed' ? d : undefined;
      }, 15_000);
      expect(outcome.reason).toMatch(/lost from the queue/);
      expect(await outboxRows(system)).toBe(0);

      await system.startMailer();
      await new Promise((r) => setTimeout(r, 2000));
      expect(system.smtp.to('unlucky@example.com')).toHaveLength(0);
    } finally {
      await system.close();
    }
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { jobSeal, MAIL_QUEUE } from '@hush/queue';
import { capturingLogger, eventually, startSmtp, TcpProxy, testRedisUrl, type TestSmtp } from '@hush/testing';
import { readConfig } from '../src/config.js';
import { aSecretLinkJob, producerJobOptions, serveMailer, type Mailer } from './harness.js';

/**
 * Redis out for a few seconds under a running mailer: every reconnection attempt of every
 * connection fails, and the log says so once, then once more when Redis is back, not once per
 * attempt; jobs queued meanwhile are sent once it is.
 */
const proxy = new TcpProxy(testRedisUrl);
let smtp: TestSmtp;
let mailer: Mailer | undefined;

beforeAll(async () => {
  await proxy.start();
  smtp = await startSmtp();
});
afterAll(async () => {
  await mailer?.close();
  await smtp.close();
  await proxy.stop();
});

it('logs a Redis outage as one line and its end as one more, and sends what was queued once Redis is back', async () => {
  const prefix = `mailer-outage-${randomBytes(4).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  const config = readConfig({ REDIS_URL: proxy.via(testRedisUrl), QUEUE_PREFIX: prefix, SMTP_URL: smtp.url, MANAGEMENT_PORT: '0', MAIL_SEALING_KEY: key });
  const { logger, logs } = capturingLogger('mailer-outage', 'info');
  mailer = await serveMailer(config, logger);

  await proxy.stop();
  // The outage noticed (its connections dropped and retrying) before the job is queued.
  await eventually(async () => (logs.some((l) => l.includes('redis unavailable')) ? true : undefined), 10_000);
  const producer = new Queue(MAIL_QUEUE, { connection: { url: testRedisUrl }, prefix });
  const job = aSecretLinkJob();
  // Production's retry budget, scaled down: the worker's connection may be back a moment before the
  // status connection, and the first attempts then fail and are retried.
  await producer.add('secret-link', jobSeal(Buffer.from(key, 'hex')).seal(job), producerJobOptions(job.deliveryId, 8, 500));
  await proxy.start();
  await smtp.waitFor(job.to, 1, 20_000);
  await eventually(async () => (logs.some((l) => l.includes('redis available again')) ? true : undefined), 10_000);

  const lines = logs.map((l) => JSON.parse(l) as { msg: string; level: number });
  expect(lines.filter((l) => l.msg === 'redis unavailable')).toHaveLength(1);
  expect(lines.filter((l) => l.msg === 'redis available again')).toHaveLength(1);
  expect(lines.filter((l) => l.msg === 'worker error')).toEqual([]);
  await producer.obliterate({ force: true });
  await producer.close();
}, 40_000);

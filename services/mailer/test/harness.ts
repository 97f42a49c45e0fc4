import { randomBytes, randomUUID } from 'node:crypto';
import { Queue, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_STATUS_QUEUE, MAIL_QUEUE, jobSeal, mailJobName, mailJobOptions, type DeliveryStatusJob, type MailJob, type MailProducer, type SecretLinkJob } from '@hush/queue';
import type { AddressInfo } from 'node:net';
import { closeGracefully, listen, type Logger } from '@hush/common';
import { capturingLogger, testRedisUrl } from '@hush/testing';
import { readConfig, type Config } from '../src/config.js';
import { DeliveryStatus, statusJobId } from '../src/delivery-status.js';
import { createMailerApp } from '../src/app.js';

/** Test data builder for a secret-link job, unique per call. */
export function aSecretLinkJob(overrides: Partial<SecretLinkJob> = {}): SecretLinkJob {
  const id = randomUUID();
  return {
    version: 1,
    deliveryId: `delivery-${id}`,
    to: `rcpt-${id.slice(0, 8)}@example.com`,
    sender: 'alice',
    link: `https://hush.example/secret/${randomBytes(20).toString('hex')}`,
    passphraseRequired: false,
    expiresAt: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
    ...overrides,
  };
}

/** The options the producer (services/secrets' outbox relay) sets, with test-sized backoff. */
export const producerJobOptions = (deliveryId: string, attempts = 3, backoffMs = 100): JobsOptions => mailJobOptions(deliveryId, { attempts, backoffMs });

/** A running mailer as main.ts runs it: the app started, its health server listening. */
export interface Mailer {
  port: number;
  /** Closes the app (draining jobs), then its HTTP server; safe to call more than once. */
  close(): Promise<void>;
}

/** Builds, starts and serves the mailer's management port on a free port (config.MANAGEMENT_PORT is ignored). */
export async function serveMailer(config: Config, logger: Logger): Promise<Mailer> {
  const app = createMailerApp(config, logger);
  await app.start();
  const server = await listen(app.management, 0);
  let closed: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close: () => (closed ??= app.close().then(() => closeGracefully(server, 1000))),
  };
}

export interface MailerHarness {
  config: Config;
  mailer: Mailer;
  logs: string[];
  url: string;
  /** Adds a job as the producer would, sealed; `data` may be anything, to test bad payloads. */
  add(data: unknown, options: JobsOptions): Promise<Job>;
  /** Adds `data` to the queue as it is, unsealed: what a producer without the sealing key would add. */
  addRaw(data: unknown, options: JobsOptions): Promise<Job>;
  /** Adds a job, sealed as `from` seals it, to the queue named `queueName` (a previous name of the mail queue). */
  addTo(queueName: string, job: MailJob, options: JobsOptions, from?: MailProducer): Promise<Job>;
  getJob(jobId: string): Promise<Job | undefined>;
  /** Waits for the status job the mailer reports for a delivery. */
  waitForStatus(deliveryId: string, status: DeliveryStatusJob['status'], timeoutMs?: number): Promise<DeliveryStatusJob>;
  statusJob(deliveryId: string, status: DeliveryStatusJob['status']): Promise<Job | undefined>;
  /** Records a delivery as sent, as an earlier attempt that then failed to report would have. */
  markSent(deliveryId: string, at: number): Promise<void>;
  close(): Promise<void>;
}

/** Boots the real mailer in-process against the real Redis with a unique queue prefix. */
export async function startTestMailer(smtpUrl: string, env: Record<string, string> = {}): Promise<MailerHarness> {
  const prefix = `mailer-test-${randomBytes(6).toString('hex')}`;
  const config = readConfig({
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: smtpUrl,
    MANAGEMENT_PORT: '0',
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    // A busy test machine is no Redis outage: commands get 5 s (the default 1 s).
    REDIS_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const { logger, logs } = capturingLogger('mailer-test');
  const mailer = await serveMailer(config, logger);
  const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
  const seal = jobSeal(config.MAIL_SEALING_KEY);
  const producer = new Queue(MAIL_QUEUE, { connection: redis, prefix });
  const others: Queue[] = [];
  const statusQueue = new Queue(DELIVERY_STATUS_QUEUE, { connection: redis, prefix });
  const statusJob = async (deliveryId: string, status: DeliveryStatusJob['status']) => (await statusQueue.getJob(statusJobId(deliveryId, status))) ?? undefined;

  return {
    config,
    mailer,
    logs,
    url: `http://127.0.0.1:${mailer.port}`,
    add: (data, options) => producer.add('secret-link', seal.seal(data as SecretLinkJob), options),
    addRaw: (data, options) => producer.add('secret-link', data, options),
    addTo(queueName, job, options, from) {
      const queue = new Queue(queueName, { connection: redis, prefix });
      others.push(queue);
      return queue.add(mailJobName(job), seal.seal(job, from), options);
    },
    getJob: async (jobId) => (await producer.getJob(jobId)) ?? undefined,
    statusJob,
    markSent: (deliveryId, at) => new DeliveryStatus(redis, prefix, statusQueue).markSent(deliveryId, at),
    async waitForStatus(deliveryId, status, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await statusJob(deliveryId, status);
        if (job) return job.data as DeliveryStatusJob;
        if (Date.now() > deadline) throw new Error(`timed out waiting for status ${status} of ${deliveryId}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      await mailer.close();
      for (const queue of [producer, ...others]) await queue.obliterate({ force: true });
      await statusQueue.obliterate({ force: true });
      const markers = await redis.keys(`${prefix}:*`);
      if (markers.length > 0) await redis.del(...markers);
      for (const queue of [producer, ...others, statusQueue]) await queue.close();
      redis.disconnect();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

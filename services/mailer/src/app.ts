import type { RequestListener } from 'node:http';
import { Queue, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis, KeyRing, managementEndpoints, warnIfRedisVolatile, withTimeout, type Logger, type ServiceApp } from '@hush/common/base';
import { DELIVERY_STATUS_QUEUE, IDENTITY_DELIVERY_STATUS_QUEUE, SECRET_LINK_QUEUE, jobSeal } from '@hush/queue';
import type { Config } from './config.js';
import { DeliveryStatus } from './delivery-status.js';
import { createMetrics } from './metrics.js';
import { createMailTransport, type MailTransport } from '@hush/mail';
import { createSecretLinkWorker } from './worker.js';

export interface MailerApp extends ServiceApp {
  /** The management port's listener (/healthz, /readyz, /metrics): the mailer serves nothing else. */
  management: RequestListener;
  /** Connects to Redis and SMTP and starts taking jobs. */
  start(): Promise<void>;
  /**
   * Stops taking jobs, lets the in-flight ones finish (send and report), then closes the SMTP
   * pool and the Redis connections (the mailer's own: it has no others). Safe to call more than
   * once. /readyz answers 503 from its first call; the management server is its owner's to close.
   */
  close(): Promise<void>;
}

/** Longest wait (ms) for a Redis connection or command (a status report, a sent marker, readiness). */
const REDIS_TIMEOUT_MS = 1000;

interface Running {
  redis: Redis;
  statusQueue: Queue;
  identityStatusQueue: Queue;
  linkQueue: Queue;
  transport: MailTransport;
  worker: Worker;
}

/** Builds the mailer (worker, status reporting, health/metrics handler); nothing runs until start(). */
export function createMailerApp(config: Config, logger: Logger): MailerApp {
  let running: Running | undefined;
  const metrics = createMetrics(async () => (running ? withTimeout(running.linkQueue.getWaitingCount(), 1000, () => undefined).catch(() => undefined) : undefined));
  // Failed-status reports run after the job left the worker; close() waits for them too.
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const inFlight = { count: 0 };
  let closing = false;

  const management = managementEndpoints({
    registry: metrics.registry,
    health: {
      checks: {
        redis: async () => {
          if (!running) throw new Error('not started');
          return running.redis.ping();
        },
      },
      stopping: () => closing,
    },
  });

  const start = async () => {
    // One ordinary connection for the status queue, the sent markers, metrics and readiness; the
    // worker opens its own (BullMQ needs a blocking one).
    const redis = connectRedis(config.REDIS_URL, REDIS_TIMEOUT_MS, logger);
    warnIfRedisVolatile(
      redis,
      logger,
      'queued e-mail jobs (delayed until the secrets service re-queues them) and the sent markers that keep a re-run job from sending twice (duplicate e-mails possible)',
    );
    const statusQueue = new Queue(DELIVERY_STATUS_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
    const identityStatusQueue = new Queue(IDENTITY_DELIVERY_STATUS_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
    const linkQueue = new Queue(SECRET_LINK_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
    for (const queue of [statusQueue, identityStatusQueue, linkQueue]) {
      queue.on('error', (err) => logger.debug({ err: { message: err.message } }, 'queue connection error'));
    }
    const transport = createMailTransport({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      maxConnections: config.CONCURRENCY,
      requireTls: config.SMTP_REQUIRE_TLS,
      rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED,
    });
    const status = new DeliveryStatus(redis, config.QUEUE_PREFIX, statusQueue, { identity: identityStatusQueue });
    const worker = createSecretLinkWorker(
      { config, logger, transport, status, metrics, inFlight, seal: jobSeal(KeyRing.of(config.MAIL_SEALING_KEY, config.MAIL_SEALING_KEYS_PREVIOUS, 'MAIL_SEALING_KEY')) },
      track,
    );
    running = { redis, statusQueue, identityStatusQueue, linkQueue, transport, worker };
    logger.info({ concurrency: config.CONCURRENCY, prefix: config.QUEUE_PREFIX }, 'mailer started');
  };

  const close = async () => {
    closing = true;
    if (!running) return;
    const { redis, statusQueue, identityStatusQueue, linkQueue, transport, worker } = running;
    logger.info('mailer stopping: finishing in-flight jobs');
    // BullMQ's graceful close waits for the worker's fetch loop, which never ends while Redis is
    // unreachable; with no job in flight there is nothing to wait for, so close at once then.
    const force = inFlight.count === 0 && redis.status !== 'ready';
    await worker.close(force);
    logger.debug({ force }, 'worker closed');
    await Promise.allSettled([...pending]);
    transport.close();
    await Promise.allSettled([statusQueue.close(), identityStatusQueue.close(), linkQueue.close()]);
    logger.debug('queues closed');
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
    logger.info('mailer stopped');
  };

  let closed: Promise<void> | undefined;
  return { management, start, close: () => (closed ??= close()) };
}

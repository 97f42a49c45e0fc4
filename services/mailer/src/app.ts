import type { RequestListener } from 'node:http';
import { Queue, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { closeRedis, connectRedis, KeyRing, managementEndpoints, warnIfRedisVolatile, withTimeout, type Logger, type ServiceApp } from '@hush/common/base';
import { DELIVERY_STATUS_QUEUE, IDENTITY_DELIVERY_STATUS_QUEUE, MAIL_QUEUE, PREVIOUS_MAIL_QUEUES, jobSeal } from '@hush/queue';
import type { Config } from './config.js';
import { DeliveryStatus } from './delivery-status.js';
import { createMetrics } from './metrics.js';
import { createMailTransport, type MailTransport } from '@hush/mail';
import { createMailWorker } from './worker.js';

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

interface Running {
  redis: Redis;
  statusQueue: Queue;
  identityStatusQueue: Queue;
  /** The mail queue and its previous names (read for the waiting count). */
  mailQueues: Queue[];
  transport: MailTransport;
  /** One per name in mailQueues: jobs queued under a previous name before an upgrade are delivered too. */
  workers: Worker[];
}

/** The mail queue's waiting jobs, under its name and its previous ones. */
async function waiting(queues: Queue[]): Promise<number> {
  const counts = await Promise.all(queues.map((queue) => queue.getWaitingCount()));
  return counts.reduce((a, b) => a + b, 0);
}

/** Builds the mailer (worker, status reporting, health/metrics handler); nothing runs until start(). */
export function createMailerApp(config: Config, logger: Logger): MailerApp {
  let running: Running | undefined;
  const metrics = createMetrics(async () => (running ? withTimeout(waiting(running.mailQueues), 1000, () => undefined).catch(() => undefined) : undefined));
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
    const redis = connectRedis(config.REDIS_URL, config.REDIS_TIMEOUT_MS, logger);
    warnIfRedisVolatile(
      redis,
      logger,
      'queued e-mail jobs (delayed until the secrets service re-queues them) and the sent markers that keep a re-run job from sending twice (duplicate e-mails possible)',
    );
    const statusQueue = new Queue(DELIVERY_STATUS_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
    const identityStatusQueue = new Queue(IDENTITY_DELIVERY_STATUS_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
    const mailQueues = [MAIL_QUEUE, ...PREVIOUS_MAIL_QUEUES].map((name) => new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX }));
    for (const queue of [statusQueue, identityStatusQueue, ...mailQueues]) {
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
    const deps = {
      config,
      logger,
      transport,
      status,
      metrics,
      inFlight,
      seal: jobSeal(KeyRing.of(config.MAIL_SEALING_KEY, config.MAIL_SEALING_KEYS_PREVIOUS, 'MAIL_SEALING_KEY')),
    };
    // A previous name holds only what was queued before the upgrade: one job at a time drains it.
    const workers = mailQueues.map((queue) => createMailWorker({ name: queue.name, concurrency: queue.name === MAIL_QUEUE ? config.CONCURRENCY : 1 }, deps, track));
    running = { redis, statusQueue, identityStatusQueue, mailQueues, transport, workers };
    logger.info({ concurrency: config.CONCURRENCY, prefix: config.QUEUE_PREFIX }, 'mailer started');
  };

  const close = async () => {
    closing = true;
    if (!running) return;
    const { redis, statusQueue, identityStatusQueue, mailQueues, transport, workers } = running;
    logger.info('mailer stopping: finishing in-flight jobs');
    // BullMQ's graceful close waits for the worker's fetch loop, which never ends while Redis is
    // unreachable; with no job in flight there is nothing to wait for, so close at once then.
    const force = inFlight.count === 0 && redis.status !== 'ready';
    await Promise.all(workers.map((worker) => worker.close(force)));
    logger.debug({ force }, 'workers closed');
    await Promise.allSettled([...pending]);
    transport.close();
    await Promise.allSettled([statusQueue.close(), identityStatusQueue.close(), ...mailQueues.map((queue) => queue.close())]);
    logger.debug('queues closed');
    await closeRedis(redis);
    logger.info('mailer stopped');
  };

  let closed: Promise<void> | undefined;
  return { management, start, close: () => (closed ??= close()) };
}

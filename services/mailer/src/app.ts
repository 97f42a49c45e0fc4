import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createLogger, type Logger } from '@hush/common';
import { DELIVERY_STATUS_QUEUE, SECRET_LINK_QUEUE } from '@hush/queue';
import type { Config } from './config.js';
import { DeliveryStatus } from './delivery-status.js';
import { createHealthServer } from './http.js';
import { createMetrics } from './metrics.js';
import { createMailTransport } from '@hush/mail';
import { createSecretLinkWorker } from './worker.js';

export interface Mailer {
  /** The port the health/metrics server listens on (useful with PORT=0). */
  port: number;
  /**
   * Stops taking jobs, lets the in-flight ones finish (send and report), then closes the HTTP
   * server, the SMTP pool and the Redis connections. Safe to call more than once.
   */
  close(): Promise<void>;
}

/** Resolves `undefined` if `promise` takes longer than `ms` (a check must not hang a probe). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Builds and starts the whole mailer in-process: worker, status reporting, health/metrics server. */
export async function startMailer(config: Config, options: { logger?: Logger } = {}): Promise<Mailer> {
  const logger = options.logger ?? createLogger({ name: 'mailer', level: config.LOG_LEVEL });

  // One ordinary connection for the status queue, the sent markers, metrics and readiness; the
  // worker opens its own (BullMQ needs a blocking one).
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
  redis.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis connection error'));
  const statusQueue = new Queue(DELIVERY_STATUS_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
  const linkQueue = new Queue(SECRET_LINK_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
  for (const queue of [statusQueue, linkQueue]) {
    queue.on('error', (err) => logger.debug({ err: { message: err.message } }, 'queue connection error'));
  }

  const metrics = createMetrics(() => within(linkQueue.getWaitingCount(), 1000).catch(() => undefined));
  const transport = createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, maxConnections: config.CONCURRENCY, requireTls: config.SMTP_REQUIRE_TLS, rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED });
  const status = new DeliveryStatus(redis, config.QUEUE_PREFIX, statusQueue);

  // Failed-status reports run after the job left the worker; close() waits for them too.
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const inFlight = { count: 0 };
  const worker = createSecretLinkWorker({ config, logger, transport, status, metrics, inFlight }, track);

  let closing = false;
  const server = createHealthServer({
    registry: metrics.registry,
    ready: async () => !closing && (await within(redis.ping(), 1000).catch(() => undefined)) === 'PONG',
  });
  server.listen(config.PORT);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, concurrency: config.CONCURRENCY, prefix: config.QUEUE_PREFIX }, 'mailer started');

  let closed: Promise<void> | undefined;
  const close = async () => {
    closing = true;
    logger.info('mailer stopping: finishing in-flight jobs');
    // BullMQ's graceful close waits for the worker's fetch loop, which never ends while Redis is
    // unreachable; with no job in flight there is nothing to wait for, so close at once then.
    const force = inFlight.count === 0 && redis.status !== 'ready';
    await worker.close(force);
    logger.debug({ force }, 'worker closed');
    await Promise.allSettled([...pending]);
    server.close();
    server.closeAllConnections();
    transport.close();
    await Promise.allSettled([statusQueue.close(), linkQueue.close()]);
    logger.debug('queues closed');
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
    logger.info('mailer stopped');
  };
  return {
    port,
    close: () => (closed ??= close()),
  };
}

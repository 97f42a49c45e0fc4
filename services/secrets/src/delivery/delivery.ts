import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { DELIVERY_STATUS_QUEUE, SECRET_LINK_QUEUE, deliveryStatusJob, secretLinkJob, type SecretLinkJob } from '@hush/queue';
import type { Logger } from '@hush/common';
import type { SecretCrypto } from '../secrets/secret-crypto.js';
import type { OutboxRepository } from './outbox.repository.js';

export interface DeliveryOptions {
  redisUrl: string;
  prefix: string;
  /** Send attempts per e-mail and the first retry delay (then doubled each time), for the mailer. */
  attempts: number;
  backoffMs: number;
  relayIntervalMs: number;
}

/**
 * E-mail delivery, the producer's half (issue 4): the outbox relay moves e-mail requests from
 * PostgreSQL into BullMQ, and a worker records what the mailer reports on the metadata.
 *
 * - Nothing is lost: a row leaves the outbox only in the transaction that queued it. If Redis is
 *   down the add fails at once (no offline queue) and the row is retried later; shares never wait
 *   for Redis.
 * - Nothing is sent twice: the job id is the outbox row id, so BullMQ ignores a second add of a
 *   row that is still queued. (Should the database commit fail right after a successful add, the
 *   row would be relayed again once the first job is gone: a crash window of one statement.)
 */
export class Delivery {
  private readonly queue: Queue;
  private readonly statusWorker: Worker;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastWarning = 0;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly crypto: SecretCrypto,
    private readonly options: DeliveryOptions,
    private readonly logger: Logger,
  ) {
    const producer: ConnectionOptions = { url: options.redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
    this.queue = new Queue(SECRET_LINK_QUEUE, { connection: producer, prefix: options.prefix });
    this.queue.on('error', (err) => this.warn('queue', err));
    // Workers wait for Redis instead of failing (BullMQ needs maxRetriesPerRequest: null there).
    this.statusWorker = new Worker(DELIVERY_STATUS_QUEUE, async (job) => this.record(job.data), {
      connection: { url: options.redisUrl, maxRetriesPerRequest: null },
      prefix: options.prefix,
      concurrency: 4,
      removeOnComplete: { count: 0 },
      removeOnFail: { count: 1000 },
    });
    this.statusWorker.on('error', (err) => this.warn('status worker', err));
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.relayIntervalMs);
    this.timer.unref();
  }

  /** Relays now (after a share with a recipient) rather than at the next tick. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.relayAll()
      .then(() => undefined)
      .catch((err: unknown) => this.warn('relay', err))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Relays every due row; resolves when the outbox has nothing due (tests await it). */
  async relayAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const moved = await this.outbox.relayDue(100, Math.ceil(this.options.relayIntervalMs / 1000) * 5, async (rows) => {
        const done: string[] = [];
        const failed: string[] = [];
        for (const row of rows) {
          try {
            const job: SecretLinkJob = secretLinkJob.parse(JSON.parse(this.crypto.openOutbox(row.id, row.payloadSealed)));
            await this.queue.add('secret-link', job, {
              jobId: row.id,
              attempts: this.options.attempts,
              backoff: { type: 'exponential', delay: this.options.backoffMs },
              removeOnComplete: true,
              removeOnFail: true,
            });
            done.push(row.id);
          } catch (err) {
            failed.push(row.id);
            this.warn('enqueue', err);
          }
        }
        return { done, failed };
      });
      total += moved;
      if (moved === 0) return total;
    }
  }

  private async record(data: unknown): Promise<void> {
    const status = deliveryStatusJob.parse(data);
    await this.outbox.recordDelivery(status.deliveryId, status.status, new Date(status.at * 1000), status.reason);
    this.logger.info({ deliveryId: status.deliveryId, status: status.status }, 'e-mail delivery status recorded');
  }

  /** Redis outages produce an error per command: log one line every 30 s at most. */
  private warn(where: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 30_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: (err as Error).message, where }, 'e-mail delivery: redis unavailable or failing; will retry');
  }

  async queueDepth(): Promise<number> {
    return this.queue.count();
  }

  /** Bounded: BullMQ's close waits forever for a Redis that is gone, and shutdown must not. */
  async close(timeoutMs = 5000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([this.statusWorker.close(), this.queue.close()]), timeout]);
    clearTimeout(timer);
  }
}

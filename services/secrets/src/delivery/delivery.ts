import { secretLinkJob } from '@hush/queue';
import type { Logger } from '@hush/common';
import type { SecretCrypto } from '../secrets/secret-crypto.js';
import { InlineDispatcher, QueueDispatcher, type Dispatcher } from './dispatchers.js';
import type { OutboxRepository } from './outbox.repository.js';

export interface DeliveryOptions {
  /** `queue`: BullMQ and the mailer (production). `inline`: straight to SMTP, for a machine without Redis. */
  mode: 'queue' | 'inline';
  redisUrl: string;
  prefix: string;
  /** Send attempts per e-mail, and the first retry delay (doubled each time). */
  attempts: number;
  backoffMs: number;
  relayIntervalMs: number;
  smtp: { url: string; from: string; requireTls: boolean; rejectUnauthorized: boolean };
}

/** Seconds a dispatcher has before an unfinished row is due again. */
const LEASE_SECONDS = 60;

/**
 * E-mail delivery, the producer's half: the relay moves e-mail requests from the
 * outbox (written by the share's own statement) to a dispatcher, and statuses land on the
 * metadata.
 *
 * - Nothing is lost: a row leaves the outbox only once dispatched; while Redis (or SMTP, inline)
 *   is down it stays, and shares never wait for either.
 * - Nothing is sent twice in the queue mode: the BullMQ job id is the row id. (A row whose lease
 *   ran out after a successful add, but before its deletion, is queued again only if the first
 *   job is already gone: a crash window of one statement.)
 */
export class Delivery {
  /** Created by start(): the queue mode's dispatcher opens Redis connections and a worker. */
  private dispatcher: Dispatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastWarning = 0;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly crypto: SecretCrypto,
    private readonly options: DeliveryOptions,
    private readonly logger: Logger,
  ) {}

  /** Opens the dispatcher (queue or SMTP) and relays every RELAY_INTERVAL_MS from now on. */
  start(): void {
    const { options } = this;
    const onStatus = async (deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined) => {
      await this.outbox.recordDelivery(deliveryId, status, at, reason);
      this.logger.info({ deliveryId, status }, 'e-mail delivery status recorded');
    };
    this.dispatcher =
      options.mode === 'inline'
        ? new InlineDispatcher({ ...options.smtp, smtpUrl: options.smtp.url, attempts: options.attempts, backoffMs: options.backoffMs }, onStatus)
        : new QueueDispatcher(options, onStatus, (where, err) => this.warn(where, err));
    this.timer = setInterval(() => this.kick(), this.options.relayIntervalMs);
    this.timer.unref();
  }

  /** Relays now (after a share with a recipient) rather than at the next tick; before start() the rows wait. */
  kick(): void {
    if (!this.dispatcher) return;
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

  /** Relays every due row; resolves when nothing is due (tests await it). Returns rows dispatched. */
  async relayAll(): Promise<number> {
    const dispatcher = this.dispatcher;
    if (!dispatcher) return 0;
    let total = 0;
    for (;;) {
      const rows = await this.outbox.lease(100, LEASE_SECONDS);
      if (rows.length === 0) return total;
      const done: string[] = [];
      let progressed = false;
      for (const row of rows) {
        const job = secretLinkJob.parse(JSON.parse(this.crypto.openOutbox(row.id, row.payloadSealed)));
        const outcome = await dispatcher.dispatch(job, row.attempts);
        if (outcome.kind === 'retry') {
          this.warn('dispatch', new Error(outcome.reason));
          await this.outbox.retryIn(row.id, outcome.afterSeconds);
          continue;
        }
        done.push(row.id);
        progressed = true;
      }
      await this.outbox.remove(done);
      total += done.length;
      if (!progressed) return total; // everything due is failing (Redis or SMTP down): wait
    }
  }

  /** Outages produce an error per attempt: log one line every 30 s at most. */
  private warn(where: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 30_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: (err as Error).message, where }, 'e-mail delivery: dispatch failing; will retry');
  }

  queueDepth(): Promise<number> {
    return this.dispatcher ? this.dispatcher.queueDepth() : Promise.resolve(0);
  }

  /** Bounded: BullMQ's close waits forever for a Redis that is gone, and shutdown must not. */
  async close(timeoutMs = 5000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.dispatcher?.close(), timeout]);
    clearTimeout(timer);
  }
}

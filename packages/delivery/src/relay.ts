import type { MailJob, MailProducer } from '@hush/queue';
import { outageLog, withTimeout, type Logger, type OutageLog } from '@hush/common/base';
import { outsideTrace, withSpan } from '@hush/telemetry';
import { BurstLog } from './burst-log.js';
import type { Dispatcher, OnStatus } from './dispatchers.js';
import { mailQueueDepth, type DepthRedis } from './queue-depth.js';

export interface DeliveryOptions {
  /** `queue`: BullMQ and the mailer (production). `inline`: straight to SMTP, for a machine without Redis. */
  mode: 'queue' | 'inline';
  redisUrl: string;
  prefix: string;
  /** Queue mode: MAIL_SEALING_KEY, under which the jobs are sealed (the mailer holds the same). */
  sealingKey: Buffer | undefined;
  /** Send attempts per e-mail, and the first retry delay (doubled each time). */
  attempts: number;
  backoffMs: number;
  relayIntervalMs: number;
  /** Queue mode: seconds after a hand-off before the reconciler checks that the job still exists. */
  requeueAfterSeconds: number;
  /** Queue mode: times a delivery whose job vanished is queued again before it is marked `failed`. */
  requeueLimit: number;
  smtp: { url: string; from: string; requireTls: boolean; rejectUnauthorized: boolean };
  /** Queue mode: who the jobs come from, so the mailer reports to this service's status queue (default: secrets). */
  producer?: MailProducer;
}

/** What the relay needs of an outbox row; a service's rows carry more (what `jobOf` reads). */
export interface OutboxRowBase {
  id: string;
  /** Dispatch attempts before this one. */
  attempts: number;
  /** When the row was first handed to the queue; null until then (and always, inline). */
  queuedAt: Date | null;
  /** Times its job was found gone from the queue and added again. */
  requeues: number;
  /** The W3C `traceparent` of the request that wrote the row, when that service traced it. */
  traceContext?: string | null;
}

/** A service's outbox table (its `*.repository.ts`), as the relay uses it. */
export interface Outbox<Row extends OutboxRowBase> {
  /** Takes up to `limit` due rows for `leaseSeconds` (SKIP LOCKED), counting the attempt. */
  lease(limit: number, leaseSeconds: number): Promise<Row[]>;
  /** The outcome is known: the rows go. */
  remove(ids: string[]): Promise<void>;
  /** Handed to the queue: due again in `checkAfterSeconds` for the reconciler. */
  markQueued(id: string, checkAfterSeconds: number, requeued: boolean): Promise<void>;
  /** Whether the row is still there (no outcome recorded since it was leased). */
  exists(id: string): Promise<boolean>;
  retryIn(id: string, seconds: number): Promise<void>;
  /** Records the outcome and deletes the row, in one statement; `sent` is final. */
  recordDelivery(deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined): Promise<unknown>;
}

/** What the relay reaches: the outbox, how a row becomes its job (opening what is sealed in it), the log. */
export interface RelayDeps<Row extends OutboxRowBase> {
  outbox: Outbox<Row>;
  jobOf(row: Row): MailJob;
  logger: Logger;
  /**
   * Queue mode: the service's own Redis connection, from which queueDepth() reads the mail queues
   * before this process has handed anything on (queue-depth.ts). Without it, queueDepth() opens
   * the dispatcher.
   */
  redis?: DepthRedis;
}

/** Seconds a dispatcher has before an unfinished row is due again. */
const LEASE_SECONDS = 60;

/**
 * E-mail delivery, the producer's half (the secrets and identity services each run one): the
 * relay moves e-mail requests from the service's outbox (written in the same transaction as what
 * it mails about) to a dispatcher, and statuses are recorded through the outbox.
 *
 * - Nothing is lost: a row leaves the outbox only when the outcome is known (`sent` or `failed`
 *   recorded) or what it mails about has expired; while Redis (or SMTP, inline) is down it
 *   stays, and requests never wait for either.
 * - Nothing waits forever on a lost job (queue mode): a handed-off row is due again after
 *   `requeueAfterSeconds`; the reconciler (this same relay) then asks BullMQ whether its job is
 *   still there. Waiting, delayed or running: check again later. Gone (Redis lost its data, or
 *   the job finished and its report is still on the way): queue it again under the same job id,
 *   so BullMQ never holds two jobs for one delivery; after `requeueLimit` such re-queues the
 *   delivery is recorded `failed` with a reason.
 * - Nothing is sent twice, as far as Redis remembers: the mailer keeps a "sent" marker per
 *   delivery and reports instead of sending when a job comes back after a send. If that marker
 *   was lost with the rest of Redis's data before the `sent` report was recorded here, the
 *   re-queued job sends a second e-mail: the residual duplicate window (see the README).
 */
export class DeliveryRelay<Row extends OutboxRowBase> {
  /**
   * Opened when there is first something to hand on (open()): the queue mode's dispatcher loads
   * BullMQ and opens Redis connections and a worker, the inline one loads nodemailer.
   */
  private dispatcher: Dispatcher | undefined;
  private opening: Promise<Dispatcher> | undefined;
  private started = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Redis (queue mode) or SMTP (inline) failing: one line when it starts, one with the count when it ends. */
  private readonly outage: OutageLog;
  /** Jobs found gone from the queue (Redis lost its data) come in bursts: one line per burst. */
  private readonly requeued: BurstLog;
  private readonly givenUp: BurstLog;

  constructor(
    private readonly deps: RelayDeps<Row>,
    private readonly options: DeliveryOptions,
  ) {
    // A burst is over when two reconciler periods pass without another lost job.
    const quietMs = Math.max(1000, 2000 * options.requeueAfterSeconds);
    this.outage = outageLog(deps.logger, options.mode === 'inline' ? 'e-mail SMTP server' : 'e-mail queue');
    this.requeued = new BurstLog(deps.logger, 'e-mail job lost from the queue; queued again', quietMs);
    this.givenUp = new BurstLog(deps.logger, 'e-mail job lost from the queue too often; delivery marked failed', quietMs);
  }

  /**
   * Relays every RELAY_INTERVAL_MS from now on. The dispatcher (queue or SMTP) is opened by the
   * first pass that finds a row due, so a process that has sent no e-mail holds neither BullMQ
   * (~5.5 MB of heap, five Redis connections) nor nodemailer (~2.6 MB). A row handed on by an
   * earlier process comes due again after `requeueAfterSeconds` (the reconciler), which opens the
   * dispatcher and with it the status worker that records its outcome.
   */
  start(): Promise<void> {
    if (!this.started && !this.closed) {
      this.started = true;
      this.timer = setInterval(() => this.kick(), this.options.relayIntervalMs);
      this.timer.unref();
    }
    return Promise.resolve();
  }

  /** The mode's dispatcher, loaded and opened once; never after close(). */
  private open(): Promise<Dispatcher> {
    if (this.closed) return Promise.reject(new Error('the e-mail relay is closed'));
    this.opening ??= this.load().then(
      (dispatcher) => (this.dispatcher = dispatcher),
      (err: unknown) => {
        this.opening = undefined;
        throw err;
      },
    );
    return this.opening;
  }

  private async load(): Promise<Dispatcher> {
    const { options } = this;
    const onStatus: OnStatus = async (deliveryId, status, at, reason) => {
      await this.deps.outbox.recordDelivery(deliveryId, status, at, reason);
      this.deps.logger.info({ deliveryId, status }, 'e-mail delivery status recorded');
    };
    if (options.mode === 'inline') {
      const { InlineDispatcher } = await import('./inline-dispatcher.js');
      return new InlineDispatcher({ ...options.smtp, smtpUrl: options.smtp.url, attempts: options.attempts, backoffMs: options.backoffMs }, onStatus);
    }
    const { QueueDispatcher } = await import('./queue-dispatcher.js');
    return new QueueDispatcher(options, onStatus, (where, err) => this.warn(where, err));
  }

  /** Relays now (after a row was written) rather than at the next tick; before start() the rows wait. */
  kick(): void {
    if (!this.started || this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // A pass serves every row due, whoever wrote it: it runs in no request's trace (each row's
    // hand-off joins the trace of its own request, see relayAll).
    this.running = outsideTrace(() => this.relayAll())
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
    if (!this.started || this.closed) return 0;
    let total = 0;
    for (;;) {
      if (this.closed) return total;
      const rows = await this.deps.outbox.lease(100, LEASE_SECONDS);
      if (rows.length === 0) return total;
      const dispatcher = this.dispatcher ?? (await this.open());
      const done: string[] = [];
      let progressed = false;
      for (const row of rows) {
        const requeue = row.queuedAt !== null;
        if (requeue) {
          const verdict = await this.reconcile(dispatcher, row);
          if (verdict === 'unknown') continue;
          progressed = true;
          if (verdict !== 'requeue') continue;
        }
        const job = this.deps.jobOf(row);
        // Traced, the hand-off continues the trace of the request that wrote the row.
        const outcome = await withSpan(
          'outbox relay',
          { parent: row.traceContext ?? undefined, attributes: { 'hush.outbox.attempt': row.attempts, 'hush.outbox.requeue': requeue } },
          () => dispatcher.dispatch(job, row.attempts),
        );
        if (outcome.kind === 'retry') {
          this.warn('dispatch', new Error(outcome.reason));
          await this.deps.outbox.retryIn(row.id, outcome.afterSeconds);
          continue;
        }
        progressed = true;
        total++;
        this.outage.recovered();
        if (outcome.kind === 'queued') {
          await this.deps.outbox.markQueued(row.id, this.options.requeueAfterSeconds, requeue);
          if (requeue) this.requeued.record({ deliveryId: row.id, requeues: row.requeues + 1 });
        } else {
          done.push(row.id);
        }
      }
      await this.deps.outbox.remove(done);
      if (!progressed) return total; // everything due is failing (Redis or SMTP down): wait
    }
  }

  /**
   * A row handed to the queue earlier is due again: `pending` if its job is still in the queue,
   * `unknown` if Redis cannot say, `settled` if it is now recorded `failed` (re-queue budget
   * spent), `requeue` if its job is gone and it should be queued again.
   */
  private async reconcile(dispatcher: Dispatcher, row: Row): Promise<'pending' | 'unknown' | 'settled' | 'requeue'> {
    let pending: boolean;
    try {
      // The row is read again after BullMQ: an outcome recorded meanwhile means the job finished.
      pending = (await dispatcher.jobPending(row.id)) || !(await this.deps.outbox.exists(row.id));
    } catch (err) {
      this.warn('reconcile', err);
      await this.deps.outbox.retryIn(row.id, 5);
      return 'unknown';
    }
    if (pending) {
      await this.deps.outbox.markQueued(row.id, this.options.requeueAfterSeconds, false);
      return 'pending';
    }
    if (row.requeues >= this.options.requeueLimit) {
      const reason = `the e-mail job was lost from the queue again after ${row.requeues} re-queue(s); gave up`;
      await this.deps.outbox.recordDelivery(row.id, 'failed', new Date(), reason);
      this.givenUp.record({ deliveryId: row.id, requeues: row.requeues });
      return 'settled';
    }
    return 'requeue';
  }

  /** Outages produce an error per attempt and per reconnection: counted, and logged once per outage (OutageLog). */
  private warn(where: string, err: unknown): void {
    this.outage.failed(err, { where });
  }

  /** E-mail jobs waiting or delayed in the queue (0 inline, where nothing waits). */
  async queueDepth(): Promise<number> {
    if (this.dispatcher) return this.dispatcher.queueDepth();
    if (this.options.mode === 'inline') return 0;
    if (this.deps.redis) return mailQueueDepth(this.deps.redis, this.options.prefix);
    return (await this.open()).queueDepth();
  }

  /** Bounded: BullMQ's close waits forever for a Redis that is gone, and shutdown must not. */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.opening?.catch(() => undefined);
    this.requeued.flush();
    this.givenUp.flush();
    await withTimeout(this.dispatcher?.close() ?? Promise.resolve(), timeoutMs, () => undefined);
  }
}

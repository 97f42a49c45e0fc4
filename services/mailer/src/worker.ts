import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { outageLog, type Logger } from '@hush/common/base';
import { UnsealableJobError, isSecretLink, mailJobName, obfuscateEmail, openLinkKey, producerOf, traceparentOf, type JobSeal, type MailJob } from '@hush/queue';
import type { Config } from './config.js';
import type { DeliveryStatus } from './delivery-status.js';
import type { MailerMetrics } from './metrics.js';
import { SendError, sendMailJob, type MailTransport } from '@hush/mail';
import { withSpan } from '@hush/telemetry';

/** The attributes of the span that processes a job (OpenTelemetry's messaging conventions). */
const CONSUMER_SPAN = { 'messaging.system': 'bullmq', 'messaging.operation.type': 'process' };

/** A 4xx reply or a connection problem: thrown so BullMQ retries with the job's backoff. */
export class TemporarySendError extends Error {
  override name = 'TemporarySendError';
}

/** The e-mail left but the `sent` status could not be queued: the retry reports without sending. */
export class StatusReportError extends Error {
  override name = 'StatusReportError';
}

export interface WorkerDeps {
  config: Config;
  logger: Logger;
  transport: MailTransport;
  status: DeliveryStatus;
  metrics: MailerMetrics;
  /** Opens the sealed jobs (MAIL_SEALING_KEY). */
  seal: JobSeal;
  /** Jobs being processed right now (read by close()). */
  inFlight: { count: number };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A failure of the connection to Redis (refused, reset, timed out, closed), not of our work. */
function isConnectionFailure(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || /connect|connection is closed|timed? ?out/i.test(err.message);
}

/** The contract allows any URL; an e-mail only ever links to a web page. */
const isWebLink = (link: string) => /^https?:$/.test(new URL(link).protocol);

/** The job inside a sealed payload; throws UnsealableJobError (permanent) when there is none to send. */
function openJob(seal: JobSeal, data: unknown, linkKeySealingKey: Buffer | undefined): MailJob {
  const job = seal.open(data);
  if ('link' in job && !isWebLink(job.link)) throw new UnsealableJobError('invalid job payload');
  return isSecretLink(job) && job.keySealed !== undefined ? withLinkKey(job, linkKeySealingKey) : job;
}

/**
 * A zero-knowledge link handed over by identity: its key, sealed by identity for the mailer alone
 * (the secrets service that queued the job cannot open it), becomes the link's fragment.
 */
function withLinkKey(job: MailJob & { keySealed?: string }, key: Buffer | undefined): MailJob {
  if (key === undefined) throw new UnsealableJobError('the link key is sealed, and LINK_KEY_SEALING_KEY is not set');
  let fragment: string;
  try {
    fragment = openLinkKey(key, job.keySealed ?? '');
  } catch {
    throw new UnsealableJobError('the link key does not open with LINK_KEY_SEALING_KEY');
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(fragment) || !('link' in job)) throw new UnsealableJobError('invalid link key');
  const { keySealed: _sealed, ...rest } = job;
  return { ...rest, link: `${job.link}#${fragment}` };
}

/**
 * Processes one job of the mail queue (a link e-mail, a notification or a one-time code, the same way): parse →
 * send (once) → report.
 * Errors carry only short, address-free messages: BullMQ stores them on the job (`failedReason`)
 * and they become the `reason` of a `failed` status.
 */
export function createProcessor(deps: WorkerDeps) {
  return async (job: Job): Promise<'sent'> => {
    deps.inFlight.count++;
    try {
      // Traced: a child of the producer's span that queued the job (its envelope's `trace`).
      const span = {
        role: 'consumer',
        parent: traceparentOf(job.data),
        attributes: { ...CONSUMER_SPAN, 'messaging.destination.name': job.queueName, 'messaging.bullmq.attempt': job.attemptsMade + 1 },
      } as const;
      return await withSpan(`process ${job.queueName}`, span, () => processSecretLink(deps, job));
    } finally {
      deps.inFlight.count--;
    }
  };
}

async function processSecretLink({ config, logger, transport, status, metrics, seal }: WorkerDeps, job: Job): Promise<'sent'> {
  let data: MailJob;
  try {
    data = openJob(seal, job.data, config.LINK_KEY_SEALING_KEY);
  } catch (err) {
    if (!(err instanceof UnsealableJobError)) throw err;
    // Retrying cannot make a seal open: fail for good, with the reason, reported to the producer.
    logger.warn({ jobId: job.id, reason: err.message }, 'secret-link job cannot be opened; failing it');
    throw new UnrecoverableError(err.message);
  }
  const log = logger.child({ jobId: job.id, type: mailJobName(data), to: obfuscateEmail(data.to), attempt: job.attemptsMade + 1 });

  // An earlier run may have sent the e-mail and then failed to report or to complete the job;
  // SMTP has no idempotency, so this marker is what keeps a retry from sending it again.
  let sentAt = await status.sentAt(data.deliveryId);
  if (sentAt !== undefined) {
    log.info('e-mail already sent by an earlier attempt; reporting only');
  } else {
    const stopTimer = metrics.sendDuration.startTimer();
    try {
      const info = await sendMailJob(transport, data);
      log.info({ messageId: info.messageId }, 'e-mail sent');
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      const failure = err.failure;
      log.warn({ reason: failure.reason, permanent: failure.permanent }, 'sending failed');
      throw failure.permanent ? new UnrecoverableError(failure.reason) : new TemporarySendError(failure.reason);
    } finally {
      stopTimer();
    }
    metrics.sent.inc();
    sentAt = nowSeconds();
    try {
      await status.markSent(data.deliveryId, sentAt);
    } catch (err) {
      // Not fatal: the job still completes below; only a retry of this job could resend.
      log.error({ err }, 'could not record the sent marker');
    }
  }

  try {
    await status.report({ version: 1, deliveryId: data.deliveryId, status: 'sent', at: sentAt }, producerOf(job.data));
  } catch (err) {
    log.error({ err }, 'could not report the sent status; retrying without sending');
    throw new StatusReportError('sent, but the status report failed');
  }
  return 'sent';
}

/**
 * The BullMQ worker of the mail queue named `queue.name` (the mailer runs one per name the queue
 * has had: app.ts). The producer owns the job options (jobId = deliveryId, attempts, exponential
 * backoff, removeOnComplete/removeOnFail); the worker reports the final failure of a job from its
 * `failed` event, once BullMQ has decided not to retry it.
 */
export function createMailWorker(queue: { name: string; concurrency: number }, deps: WorkerDeps, track: (work: Promise<unknown>) => void): Worker {
  const { config, logger, status, metrics } = deps;
  const worker = new Worker(queue.name, createProcessor(deps), {
    connection: { url: config.REDIS_URL },
    prefix: config.QUEUE_PREFIX,
    concurrency: queue.concurrency,
  });

  worker.on('failed', (job, err) => {
    if (!job) return;
    const permanent = err.name === 'UnrecoverableError';
    const attempts = job.opts.attempts ?? 1;
    if (!permanent && job.attemptsMade < attempts) {
      logger.info({ jobId: job.id, attempt: job.attemptsMade, attempts, reason: err.message }, 'attempt failed; will retry');
      return;
    }
    if (err instanceof StatusReportError) {
      logger.error({ jobId: job.id, attempts }, 'e-mail sent but its status was never reported');
      return;
    }
    const kind = permanent ? 'permanent' : 'exhausted';
    metrics.failed.inc({ kind });
    const reason = (permanent ? err.message : `${err.message} (gave up after ${job.attemptsMade} attempts)`).slice(0, 300);
    logger.warn({ jobId: job.id, kind, reason }, 'delivery failed');

    const raw = job.data as { deliveryId?: unknown } | undefined;
    const deliveryId = typeof raw?.deliveryId === 'string' && raw.deliveryId !== '' ? raw.deliveryId : job.id;
    if (!deliveryId) return;
    track(
      status
        .report({ version: 1, deliveryId: deliveryId.slice(0, 100), status: 'failed', at: nowSeconds(), reason }, producerOf(job.data))
        .catch((reportErr: unknown) => logger.error({ jobId: job.id, err: reportErr }, 'could not report the failed status')),
    );
  });
  // While Redis is out the worker's connection fails once per reconnection attempt: those count
  // towards the one Redis outage line (the service's own connection logs its end); anything else
  // is logged as it comes.
  const redisOutage = outageLog(logger, 'redis');
  worker.on('error', (err) => (isConnectionFailure(err) ? redisOutage.failed(err) : logger.error({ err }, 'worker error')));
  return worker;
}

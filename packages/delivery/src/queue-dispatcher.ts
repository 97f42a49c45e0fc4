import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import {
  MAIL_QUEUE,
  PREVIOUS_MAIL_QUEUES,
  deliveryStatusJob,
  deliveryStatusQueue,
  jobSeal,
  mailJobName,
  mailJobOptions,
  statusJobId,
  type JobSeal,
  type MailJob,
  type MailProducer,
} from '@hush/queue';
import { currentTraceparent, withSpan } from '@hush/telemetry';
import type { Dispatcher, OnStatus, Outcome } from './dispatchers.js';

/** The attributes of the span that adds a job (OpenTelemetry's messaging conventions). */
const PRODUCER_SPAN = { 'messaging.system': 'bullmq', 'messaging.destination.name': MAIL_QUEUE, 'messaging.operation.type': 'send' };

/** BullMQ job states of a job still to be run (or running). */
const LIVE: ReadonlySet<string> = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The normal mode: BullMQ, with the mailer as consumer. The job id is the outbox row id, so a
 * row dispatched twice (a lease that ran out, or the reconciler) is queued once while its job
 * exists. Statuses come back on the status queue. Jobs are sealed (packages/queue sealed-job.ts):
 * Redis sees the delivery id, never the link or the address.
 */
export class QueueDispatcher implements Dispatcher {
  private readonly queue: Queue;
  /** Read only: the mail queue's previous names, whose jobs from before an upgrade the mailer still runs. */
  private readonly previousQueues: Queue[];
  /** Read only: whether a finished job's report is still waiting to be recorded. */
  private readonly statusQueue: Queue;
  private readonly statusWorker: Worker;
  private readonly retry: { attempts: number; backoffMs: number };
  private readonly seal: JobSeal;
  private readonly producer: MailProducer;

  constructor(
    o: { redisUrl: string; prefix: string; sealingKey: Buffer | undefined; attempts: number; backoffMs: number; producer?: MailProducer | undefined },
    private readonly onStatus: OnStatus,
    onError: (where: string, err: unknown) => void,
  ) {
    // Producers fail fast when Redis is down (no offline queue): the row stays in the outbox.
    const producer: ConnectionOptions = { url: o.redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
    this.retry = { attempts: o.attempts, backoffMs: o.backoffMs };
    // readConfig refuses queue mode without the key; this guards other callers.
    if (!o.sealingKey) throw new Error('queue delivery needs MAIL_SEALING_KEY');
    this.seal = jobSeal(o.sealingKey);
    this.producer = o.producer ?? 'secrets';
    const statusQueueName = deliveryStatusQueue(this.producer);
    this.queue = new Queue(MAIL_QUEUE, { connection: producer, prefix: o.prefix });
    this.queue.on('error', (err) => onError('queue', err));
    this.previousQueues = PREVIOUS_MAIL_QUEUES.map((name) => new Queue(name, { connection: producer, prefix: o.prefix }));
    for (const queue of this.previousQueues) queue.on('error', (err) => onError('queue', err));
    this.statusQueue = new Queue(statusQueueName, { connection: producer, prefix: o.prefix });
    this.statusQueue.on('error', (err) => onError('status queue', err));
    // Workers wait for Redis instead of failing (BullMQ needs maxRetriesPerRequest: null there).
    this.statusWorker = new Worker(
      statusQueueName,
      async (job) => {
        const s = deliveryStatusJob.parse(job.data);
        await this.onStatus(s.deliveryId, s.status, new Date(s.at * 1000), s.reason);
      },
      { connection: { url: o.redisUrl, maxRetriesPerRequest: null }, prefix: o.prefix, concurrency: 4, removeOnComplete: { count: 0 }, removeOnFail: { count: 1000 } },
    );
    this.statusWorker.on('error', (err) => onError('status worker', err));
  }

  async dispatch(job: MailJob): Promise<Outcome> {
    try {
      await withSpan(`send ${MAIL_QUEUE}`, { role: 'producer', attributes: PRODUCER_SPAN }, () => {
        const sealed = this.seal.seal(job, this.producer);
        // Traced: the job carries this span's context, and the mailer's work becomes its child.
        const trace = currentTraceparent();
        return this.queue.add(mailJobName(job), trace ? { ...sealed, trace } : sealed, mailJobOptions(job.deliveryId, this.retry));
      });
      return { kind: 'queued' };
    } catch (err) {
      // Redis is down: cheap to retry, and the e-mail should leave soon after it is back.
      return { kind: 'retry', reason: `queue unavailable: ${(err as Error).message}`, afterSeconds: 5 };
    }
  }

  async jobPending(deliveryId: string): Promise<boolean> {
    // Completed and failed jobs are removed at once (removeOnComplete/removeOnFail), so a job still
    // to be run is found in one of the live states. A job not found either finished, with its
    // report on the status queue (the mailer adds it before the job ends, or right after a final
    // failure), or was lost. A job queued before an upgrade waits in a previous queue.
    const states = await Promise.all([this.queue, ...this.previousQueues].map((queue) => queue.getJobState(deliveryId)));
    if (states.some((state) => LIVE.has(state))) return true;
    const reports = await Promise.all([this.statusQueue.getJobState(statusJobId(deliveryId, 'sent')), this.statusQueue.getJobState(statusJobId(deliveryId, 'failed'))]);
    return reports.some((state) => LIVE.has(state));
  }

  async queueDepth(): Promise<number> {
    const counts = await Promise.all([this.queue, ...this.previousQueues].map((queue) => queue.count()));
    return counts.reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.statusWorker.close(), this.queue.close(), ...this.previousQueues.map((queue) => queue.close()), this.statusQueue.close()]);
  }
}

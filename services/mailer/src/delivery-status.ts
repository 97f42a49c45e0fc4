import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { deliveryStatusJob, statusJobId, type DeliveryStatusJob, type MailProducer } from '@hush/queue';

export { statusJobId };

/** How long we remember that a delivery was sent: far beyond any job's retry horizon. */
const SENT_MARKER_TTL_SECONDS = 7 * 24 * 3600;

/**
 * What the mailer knows about a delivery outside the job itself:
 * - a "sent" marker in Redis, written right after the SMTP server accepts the message, so that a
 *   job run again after that point (status report failed, job completion lost, stalled job)
 *   reports instead of sending a second e-mail;
 * - the status jobs it adds to the producer's status queue: DELIVERY_STATUS_QUEUE for the secrets
 *   service, IDENTITY_DELIVERY_STATUS_QUEUE for the identity service.
 */
export class DeliveryStatus {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly queue: Queue,
    /** The status queues of the other producers (the secrets service's is `queue`). */
    private readonly others: Partial<Record<MailProducer, Queue>> = {},
  ) {}

  private markerKey(deliveryId: string): string {
    return `${this.prefix}:mailer:sent:${deliveryId}`;
  }

  /** When the e-mail of this delivery was accepted by the SMTP server, if it was. */
  async sentAt(deliveryId: string): Promise<number | undefined> {
    const value = await this.redis.get(this.markerKey(deliveryId));
    return value === null ? undefined : Number(value);
  }

  async markSent(deliveryId: string, at: number): Promise<void> {
    await this.redis.set(this.markerKey(deliveryId), String(at), 'EX', SENT_MARKER_TTL_SECONDS);
  }

  /**
   * Adds a status job. Its id makes a repeated report a no-op while the first is still queued; the
   * consumer must treat a later duplicate (after the first was processed and removed) as one.
   */
  async report(status: DeliveryStatusJob, producer: MailProducer = 'secrets'): Promise<void> {
    const data = deliveryStatusJob.parse(status);
    await (this.others[producer] ?? this.queue).add(data.status, data, {
      jobId: statusJobId(data.deliveryId, data.status),
      removeOnComplete: true,
      // Kept a week if the consumer keeps failing, for inspection; it holds no address.
      removeOnFail: { age: 7 * 24 * 3600 },
      attempts: 10,
      backoff: { type: 'exponential', delay: 1000 },
    });
  }
}

import { z } from 'zod';

/**
 * The services that add jobs to the mail queue. The mailer serves them all from one queue, and
 * reports each job's outcome to its producer's own status queue: each producer runs a worker on
 * its status queue, and a worker takes every job of its queue, so a shared one would hand one
 * service's reports to the other.
 */
export const MAIL_PRODUCERS = ['secrets', 'identity'] as const;
export const mailProducer = z.enum(MAIL_PRODUCERS);
export type MailProducer = z.infer<typeof mailProducer>;

/** Queue the mailer reports outcomes to; the secrets service's worker records them on the metadata. */
export const DELIVERY_STATUS_QUEUE = 'hush-delivery-status';
/** The identity service's: its worker records them on its outbox. */
export const IDENTITY_DELIVERY_STATUS_QUEUE = 'hush-identity-delivery-status';

export function deliveryStatusQueue(producer: MailProducer): string {
  return producer === 'identity' ? IDENTITY_DELIVERY_STATUS_QUEUE : DELIVERY_STATUS_QUEUE;
}

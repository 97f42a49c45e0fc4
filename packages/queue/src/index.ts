import { z } from 'zod';

/**
 * The contract between the producers (the secrets and identity services' outbox relays) and the
 * mailer (consumer).
 * Jobs never hold a secret value or passphrase. What they carry that grants access or names a
 * person (the link, the recipient address) is sealed (sealed-job.ts): Redis holds it only as
 * ciphertext. Jobs are removed from Redis once their outcome is recorded. Redis is not the record:
 * the producer's outbox row outlives the job until a status comes back, and a job found missing is
 * added again, so the consumer must expect a job to run more than once.
 */
export * from './mail-queue.js';
export * from './secret-link-job.js';
export * from './notification-job.js';
export * from './recipient-code-job.js';
export * from './secret-request-job.js';
export * from './mail-job.js';
export * from './account-link-job.js';
export * from './sealed-job.js';
export * from './mail-locale.js';
export * from './handover-label.js';
export * from './producers.js';

export const deliveryStatusJob = z.object({
  version: z.literal(1),
  deliveryId: z.string().min(1).max(100),
  status: z.enum(['sent', 'failed']),
  /** Unix seconds. */
  at: z.number().int(),
  /** For `failed`: a short reason without the address (e.g. "550 mailbox unavailable"). */
  reason: z.string().max(300).optional(),
});
export type DeliveryStatusJob = z.infer<typeof deliveryStatusJob>;

/**
 * The id of a status job: a repeated report is a no-op while the first is queued, and the producer
 * can tell a finished job whose report is on the way from a lost one. BullMQ 6 refuses custom ids
 * with one ":" (only the three-part ids of repeatable jobs may hold colons), so "-" it is; never an
 * integer either (also refused).
 */
export function statusJobId(deliveryId: string, status: DeliveryStatusJob['status']): string {
  return `${deliveryId}-${status}`;
}

/** Obfuscates an e-mail address as Onetime Secret does: `foo@example.com` → `fo*****@e*****.com`. */
export function obfuscateEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '*****';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 2)}*****@${domain.slice(0, 1)}*****${tld}`;
}

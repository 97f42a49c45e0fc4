import { z } from 'zod';

/**
 * The contract between the secrets service (producer: its outbox relay) and the mailer (consumer).
 * Jobs never hold a secret value or passphrase. They do hold the recipient address and the link,
 * which the mailer needs to send; jobs are removed from Redis once their outcome is recorded.
 * Redis is not the record: the producer's outbox row outlives the job until a status comes back,
 * and a job found missing is added again, so the consumer must expect a job to run more than once.
 */

/** Queue the secrets relay adds e-mail requests to; the mailer's worker consumes it. */
export const SECRET_LINK_QUEUE = 'hush-secret-link';

/** Queue the mailer reports outcomes to; the secrets service's worker records them on the metadata. */
export const DELIVERY_STATUS_QUEUE = 'hush-delivery-status';

export const secretLinkJob = z.object({
  version: z.literal(1),
  /**
   * The outbox row id; also the BullMQ job id, so a relay retry or a re-queue of a lost job never
   * puts a second job for one delivery in the queue.
   */
  deliveryId: z.string().min(1).max(100),
  /** Recipient e-mail address. */
  to: z.email(),
  /** Who shares the secret (the creator's custid); named in the subject and body. */
  sender: z.string().min(1).max(200),
  /** `{BASE_URL}/secret/<secret_key>`: the page that reveals the secret once, after a click. */
  link: z.url(),
  passphraseRequired: z.boolean(),
  /** Unix seconds after which the link no longer works. */
  expiresAt: z.number().int(),
});
export type SecretLinkJob = z.infer<typeof secretLinkJob>;

/**
 * The BullMQ options every secret-link job is added with (structurally BullMQ's `JobsOptions`,
 * so this package needs no BullMQ dependency). The mailer's worker relies on them: it reads
 * `attempts` to tell a final failure from one BullMQ will retry.
 */
export interface SecretLinkJobOptions {
  /** The delivery id, so a relay retry never queues the same e-mail twice. */
  jobId: string;
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: true;
  removeOnFail: true;
}

export function secretLinkJobOptions(deliveryId: string, retry: { attempts: number; backoffMs: number }): SecretLinkJobOptions {
  return { jobId: deliveryId, attempts: retry.attempts, backoff: { type: 'exponential', delay: retry.backoffMs }, removeOnComplete: true, removeOnFail: true };
}

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

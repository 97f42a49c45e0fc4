import { KeyRing } from '@hush/common/base';
import { z } from 'zod';
import { mailJob, type MailJob } from './mail-job.js';
import { mailProducer, type MailProducer } from './producers.js';

/**
 * What a mail job holds in Redis: its delivery id (the job id, which BullMQ keeps in clear
 * anyway) and everything else sealed with AES-256-GCM, the recipient address and the link above
 * all: the link opens the secret, and anyone who reads Redis (a dump, a replica, a loose ACL)
 * must not be able to follow it. The key is derived from MAIL_SEALING_KEY, which only the producers
 * (secrets, identity) and the consumer (mailer) hold; the delivery id is bound in as associated data, so a
 * sealed payload moved to another job does not open.
 */
export const sealedMailJob = z.object({
  version: z.literal(2),
  deliveryId: z.string().min(1).max(100),
  /** base64url of the sealed JSON of the MailJob (a SecretLinkJob, NotificationJob or AccountLinkJob). */
  sealed: z.string().min(1).max(20_000),
  /**
   * The producer, whose status queue the outcome goes to (producers.ts); absent: the secrets
   * service. In clear so that a job whose seal does not open can still be reported; bound into
   * the seal, so a job moved to another producer does not open.
   */
  from: mailProducer.optional(),
  /**
   * The W3C `traceparent` of the span that queued the job, when the producer traces: the mailer's
   * work continues that trace. In clear and not bound into the seal: ids, nothing secret, and a
   * forged one misplaces a trace, nothing else.
   */
  trace: z
    .string()
    .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
    .optional(),
});
export type SealedMailJob = z.infer<typeof sealedMailJob>;

/**
 * HKDF `info` of the sealing key. Jobs in the queue are sealed under it: changing it makes every
 * job in flight fail, so it never changes; a new scheme gets a new label and a new version.
 */
const SEALING_LABEL = 'hush:mail-job:seal:v1';

/** A job the mailer can never process: not a sealed job, or its seal does not open. Permanent: retrying cannot help. */
export class UnsealableJobError extends Error {
  override name = 'UnsealableJobError';
}

export interface JobSeal {
  /** `from`: the producer (default the secrets service, whose jobs carry no `from`). */
  seal(job: MailJob, from?: MailProducer): SealedMailJob;
  /** The job inside `data`; throws UnsealableJobError with a reason safe to log and report. */
  open(data: unknown): MailJob;
}

/**
 * The associated data's prefix: the mail queue's first name. Jobs in the queue are sealed with
 * it, so it stays when the queue is renamed; changing it makes every job in flight fail.
 */
const AAD_PREFIX = 'hush-secret-link';

const aad = (deliveryId: string, from: MailProducer) => (from === 'secrets' ? `${AAD_PREFIX}:${deliveryId}` : `${AAD_PREFIX}:${from}:${deliveryId}`);

/** The producer a job's outcome is reported to, read from its envelope without opening it. */
export function producerOf(data: unknown): MailProducer {
  const from = (typeof data === 'object' && data !== null ? (data as { from?: unknown }).from : undefined) ?? 'secrets';
  const parsed = mailProducer.safeParse(from);
  return parsed.success ? parsed.data : 'secrets';
}

/** The trace a job was queued in (its envelope's `trace`), if any, read without opening it. */
export function traceparentOf(data: unknown): string | undefined {
  const trace = typeof data === 'object' && data !== null ? (data as { trace?: unknown }).trace : undefined;
  return typeof trace === 'string' && sealedMailJob.shape.trace.safeParse(trace).success ? trace : undefined;
}

/**
 * Seals and opens the mail queue's jobs under `sealingKey` (MAIL_SEALING_KEY, 32 bytes), or under
 * a ring of them (MAIL_SEALING_KEY with MAIL_SEALING_KEYS_PREVIOUS): sealed under the newest and
 * tagged with its id, opened under whichever key sealed them, so the jobs a producer sealed before
 * a rotation are still delivered.
 */
export function jobSeal(sealingKey: Buffer | KeyRing): JobSeal {
  const keys = (sealingKey instanceof KeyRing ? sealingKey : KeyRing.of(sealingKey, [], 'MAIL_SEALING_KEY')).derive(SEALING_LABEL);
  return {
    seal(job, from = 'secrets') {
      const sealed = keys.seal(JSON.stringify(job), aad(job.deliveryId, from)).toString('base64url');
      return from === 'secrets' ? { version: 2, deliveryId: job.deliveryId, sealed } : { version: 2, deliveryId: job.deliveryId, sealed, from };
    },
    open(data) {
      const envelope = sealedMailJob.safeParse(data);
      if (!envelope.success) throw new UnsealableJobError('invalid job payload: not a sealed mail job');
      const { deliveryId, sealed, from = 'secrets' } = envelope.data;
      let plaintext: Buffer;
      try {
        plaintext = keys.open(Buffer.from(sealed, 'base64url'), aad(deliveryId, from));
      } catch {
        throw new UnsealableJobError(
          "job seal does not open: MAIL_SEALING_KEY differs between the producer and the mailer (and is not in the mailer's MAIL_SEALING_KEYS_PREVIOUS), or the job was altered",
        );
      }
      const job = mailJob.safeParse(JSON.parse(plaintext.toString('utf8')));
      if (!job.success || job.data.deliveryId !== deliveryId) throw new UnsealableJobError('invalid job payload');
      return job.data;
    },
  };
}

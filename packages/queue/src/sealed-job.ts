import { deriveKey, open, seal } from '@hush/common/base';
import { z } from 'zod';
import { mailJob, type MailJob } from './mail-job.js';
import { SECRET_LINK_QUEUE } from './secret-link-job.js';

/**
 * What a secret-link job holds in Redis: its delivery id (the job id, which BullMQ keeps in clear
 * anyway) and everything else sealed with AES-256-GCM, the recipient address and the link above
 * all: the link opens the secret, and anyone who reads Redis (a dump, a replica, a loose ACL)
 * must not be able to follow it. The key is derived from MAIL_SEALING_KEY, which only the producer
 * (secrets) and the consumer (mailer) hold; the delivery id is bound in as associated data, so a
 * sealed payload moved to another job does not open.
 */
export const sealedSecretLinkJob = z.object({
  version: z.literal(2),
  deliveryId: z.string().min(1).max(100),
  /** base64url of the sealed JSON of the MailJob (a SecretLinkJob or a NotificationJob). */
  sealed: z.string().min(1).max(20_000),
});
export type SealedSecretLinkJob = z.infer<typeof sealedSecretLinkJob>;

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
  seal(job: MailJob): SealedSecretLinkJob;
  /** The job inside `data`; throws UnsealableJobError with a reason safe to log and report. */
  open(data: unknown): MailJob;
}

const aad = (deliveryId: string) => `${SECRET_LINK_QUEUE}:${deliveryId}`;

/** Seals and opens the mail queue's jobs (both types) under `sealingKey` (MAIL_SEALING_KEY, 32 bytes). */
export function jobSeal(sealingKey: Buffer): JobSeal {
  const key = deriveKey(sealingKey, SEALING_LABEL);
  return {
    seal(job) {
      return { version: 2, deliveryId: job.deliveryId, sealed: seal(key, JSON.stringify(job), aad(job.deliveryId)).toString('base64url') };
    },
    open(data) {
      const envelope = sealedSecretLinkJob.safeParse(data);
      if (!envelope.success) throw new UnsealableJobError('invalid job payload: not a sealed secret-link job');
      const { deliveryId, sealed } = envelope.data;
      let plaintext: Buffer;
      try {
        plaintext = open(key, Buffer.from(sealed, 'base64url'), aad(deliveryId));
      } catch {
        throw new UnsealableJobError('job seal does not open: MAIL_SEALING_KEY differs between the secrets service and the mailer, or the job was altered');
      }
      const job = mailJob.safeParse(JSON.parse(plaintext.toString('utf8')));
      if (!job.success || job.data.deliveryId !== deliveryId) throw new UnsealableJobError('invalid job payload');
      return job.data;
    },
  };
}

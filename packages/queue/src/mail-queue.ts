/**
 * The mail queue: the producers (the secrets and identity services' outbox relays) add every
 * e-mail job to it (mail-job.ts: links, notifications, codes, secret requests, account e-mails);
 * the mailer's workers consume it.
 */
export const MAIL_QUEUE = 'hush-mail';

/**
 * The names the mail queue had before: the producers no longer add to them, the mailer still
 * consumes them, so jobs queued before an upgrade are delivered after it (CHANGELOG.md, upgrade
 * notes). A release may drop a name once every installation has drained it.
 */
export const PREVIOUS_MAIL_QUEUES: readonly string[] = ['hush-secret-link'];

/**
 * The BullMQ options every mail job is added with (structurally BullMQ's `JobsOptions`, so this
 * package needs no BullMQ dependency). The mailer's worker relies on them: it reads `attempts`
 * to tell a final failure from one BullMQ will retry.
 */
export interface MailJobOptions {
  /** The delivery id, so a relay retry never queues the same e-mail twice. */
  jobId: string;
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: true;
  removeOnFail: true;
}

export function mailJobOptions(deliveryId: string, retry: { attempts: number; backoffMs: number }): MailJobOptions {
  return { jobId: deliveryId, attempts: retry.attempts, backoff: { type: 'exponential', delay: retry.backoffMs }, removeOnComplete: true, removeOnFail: true };
}

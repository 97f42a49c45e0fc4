import { z } from 'zod';
import { accountLinkJob, type AccountLinkJob } from './account-link-job.js';
import { notificationJob, type NotificationJob } from './notification-job.js';
import { recipientCodeJob, type RecipientCodeJob } from './recipient-code-job.js';
import { secretLinkJob, type SecretLinkJob } from './secret-link-job.js';
import { secretRequestJob, type SecretRequestJob } from './secret-request-job.js';

/**
 * Every job of the mail queue: a recipient's link e-mail, a notification to a creator, a
 * recipient's one-time code, a secret request to the person asked, or an identity account e-mail
 * (`kind`). The secret-link job has no `kind`, so it is tried last.
 */
export const mailJob = z.union([notificationJob, accountLinkJob, recipientCodeJob, secretRequestJob, secretLinkJob]);
export type MailJob = SecretLinkJob | NotificationJob | AccountLinkJob | RecipientCodeJob | SecretRequestJob;

export function isNotification(job: MailJob): job is NotificationJob {
  return 'kind' in job && job.kind === 'notification';
}

export function isAccountLink(job: MailJob): job is AccountLinkJob {
  return 'kind' in job && (job.kind === 'reset-password' || job.kind === 'execute-actions' || job.kind === 'verify-email');
}

export function isRecipientCode(job: MailJob): job is RecipientCodeJob {
  return 'kind' in job && job.kind === 'recipient-code';
}

export function isSecretRequest(job: MailJob): job is SecretRequestJob {
  return 'kind' in job && job.kind === 'secret-request';
}

export function isSecretLink(job: MailJob): job is SecretLinkJob {
  return !('kind' in job);
}

/** The BullMQ job name of each type (for dashboards and logs; the worker reads the sealed `kind`). */
export const mailJobName = (job: MailJob): string => (isSecretLink(job) ? 'secret-link' : job.kind);

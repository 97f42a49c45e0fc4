import { z } from 'zod';
import { notificationJob, type NotificationJob } from './notification-job.js';
import { secretLinkJob, type SecretLinkJob } from './secret-link-job.js';

/** Every job of the mail queue: a recipient's link e-mail, or a notification to a creator (`kind`). */
export const mailJob = z.union([notificationJob, secretLinkJob]);
export type MailJob = SecretLinkJob | NotificationJob;

export function isNotification(job: MailJob): job is NotificationJob {
  return 'kind' in job && job.kind === 'notification';
}

/** The BullMQ job name of each type (for dashboards and logs; the worker reads the sealed `kind`). */
export const mailJobName = (job: MailJob): string => (isNotification(job) ? 'notification' : 'secret-link');

import { z } from 'zod';
import { isAccountLink, isNotification, isRecipientCode, isSecretLink, isSecretRequest, type MailJob } from '@hush/queue';
import { renderAccountLinkEmail } from './account-link.js';
import { classifySendError, type SendFailure } from './classify.js';
import { renderNotificationEmail } from './notification.js';
import { renderRecipientCodeEmail } from './recipient-code.js';
import { renderSecretRequestEmail } from './secret-request.js';
import { renderSecretLinkEmail } from './secret-link.js';
import type { MailTransport } from './transport.js';

/** A send that failed; `failure.permanent` says whether retrying can help. */
export class SendError extends Error {
  constructor(readonly failure: SendFailure) {
    super(failure.reason);
    this.name = 'SendError';
  }
}

const isEmail = (value: string) => z.email().safeParse(value).success;

function render(job: MailJob) {
  if (isNotification(job)) return renderNotificationEmail(job);
  if (isAccountLink(job)) return renderAccountLinkEmail(job);
  if (isRecipientCode(job)) return renderRecipientCodeEmail(job);
  if (isSecretRequest(job)) return renderSecretRequestEmail(job);
  return renderSecretLinkEmail(job);
}

/**
 * Renders and sends one job's e-mail: a recipient's link (never the value), a creator's
 * notification or a recipient's one-time code (no link at all), a secret request (its link), or an
 * identity account link (never a password). Throws SendError with an address-free reason. Used by
 * the mailer's worker and by the producers' inline delivery.
 */
export async function sendMailJob(transport: MailTransport, job: MailJob): Promise<{ messageId: string }> {
  const email = render(job);
  const replyTo = isSecretLink(job) && isEmail(job.sender) ? job.sender : undefined;
  try {
    const info = await transport.sendMail({
      to: job.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      replyTo,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    return { messageId: info.messageId };
  } catch (err) {
    throw new SendError(classifySendError(err));
  }
}

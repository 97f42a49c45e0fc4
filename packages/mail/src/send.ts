import { z } from 'zod';
import type { SecretLinkJob } from '@hush/queue';
import { classifySendError, type SendFailure } from './classify.js';
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

/**
 * Renders and sends the recipient's e-mail: the link, never the value. Throws SendError with an
 * address-free reason. Used by the mailer's worker and by the secrets service's inline delivery.
 */
export async function sendSecretLink(transport: MailTransport, job: SecretLinkJob): Promise<{ messageId: string }> {
  const email = renderSecretLinkEmail(job);
  try {
    const info = await transport.sendMail({
      to: job.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      replyTo: isEmail(job.sender) ? job.sender : undefined,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    return { messageId: info.messageId };
  } catch (err) {
    throw new SendError(classifySendError(err));
  }
}

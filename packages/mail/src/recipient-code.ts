import type { RecipientCodeJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument } from './document.js';
import { displayName } from './escape.js';
import { formatExpiry, type RenderedEmail } from './secret-link.js';

type RecipientCodeView = Pick<RecipientCodeJob, 'sender' | 'code' | 'expiresAt'>;

/**
 * The one-time code for the recipient of a recipient-only secret who has no account. It holds the
 * code and nothing else that opens anything: no link, no secret. Whoever asked for it already has
 * the link open; the code proves they also read this mailbox.
 */
export function renderRecipientCodeEmail(view: RecipientCodeView): RenderedEmail {
  const sender = displayName(view.sender);
  const expires = formatExpiry(view.expiresAt);
  const subject = `Your code to read the secret from ${sender}: ${view.code}`;
  const text = [
    `Your one-time code to read the secret ${sender} sent you:`,
    '',
    `    ${view.code}`,
    '',
    `Enter it on the page where you asked for it. It works once, until ${expires}.`,
    '',
    'If you did not ask for a code, someone else has the link to a secret meant for you: you can ignore this e-mail, the secret stays closed to them.',
    '',
  ].join('\n');
  const content = html`<p>Your one-time code to read the secret <strong>${sender}</strong> sent you:</p>
<p style="font-size: 28px; letter-spacing: 4px; font-family: monospace;"><strong>${view.code}</strong></p>
<p>Enter it on the page where you asked for it. It works once, until ${expires}.</p>
<p style="font-size: 13px; color: #666666;">If you did not ask for a code, someone else has the link to a secret meant for you: you can ignore this e-mail, the secret stays closed to them.</p>
`;
  return { subject, text, html: emailDocument(subject, content) };
}

import type { RecipientCodeJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument, smallPrint } from './document.js';
import { displayName } from './escape.js';
import { mailMessages } from './messages/index.js';
import type { RenderedEmail } from './rendered.js';

type RecipientCodeView = Pick<RecipientCodeJob, 'sender' | 'code' | 'expiresAt' | 'locale'>;

/**
 * The one-time code for the recipient of a recipient-only secret who has no account. It holds the
 * code and nothing else that opens anything: no link, no secret. Whoever asked for it already has
 * the link open; the code proves they also read this mailbox. The code is in the body only: a
 * subject shows on a locked phone's screen.
 */
export function renderRecipientCodeEmail(view: RecipientCodeView): RenderedEmail {
  const m = mailMessages(view.locale);
  const sender = displayName(view.sender, 100, m.text('common.someone'));
  const expires = m.dateTime(view.expiresAt);
  const subject = m.text('recipientCode.subject', { sender });
  const text = [m.text('recipientCode.intro', { sender }), '', `    ${view.code}`, '', m.text('recipientCode.enter', { expires }), '', m.text('recipientCode.notAsked'), ''].join(
    '\n',
  );
  const content = html`<p>${m.html('recipientCode.intro', { sender })}</p>
<p style="font-size: 28px; letter-spacing: 4px; font-family: monospace;"><strong>${view.code}</strong></p>
<p>${m.html('recipientCode.enter', { expires })}</p>
${smallPrint(m.html('recipientCode.notAsked'))}
`;
  return { subject, text, html: emailDocument(subject, content, m) };
}

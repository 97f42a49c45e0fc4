import type { NotificationJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument } from './document.js';
import type { RenderedEmail } from './secret-link.js';
import { formatExpiry } from './secret-link.js';

type NotificationView = Pick<NotificationJob, 'event' | 'shortkey' | 'at'>;

const WHAT: Record<NotificationJob['event'], string> = {
  revealed: 'was opened and read',
  burned: 'was burned before anyone read it',
  expired: 'expired without being read',
  refused: 'was refused to someone who is not its recipient',
};

const GONE = 'Its content is gone from Hush. Its receipt, under My secrets, shows what happened to it.';
const STILL_THERE = 'Nothing was revealed and the secret is still there for its recipient. Its receipt, under My secrets, shows whether it has been read.';
const ASKED_NOTE = 'You receive this e-mail because you asked to be told when you shared the secret.';
const REFUSED_NOTE = 'You receive this e-mail because the secret is for one recipient only. Further refused attempts on it are reported at most once every few minutes.';

/**
 * The e-mail that tells a creator what happened to their secret. It names the secret by its
 * receipt's short key only: no value, no key and no link, so forwarding or scanning it opens nothing.
 */
export function renderNotificationEmail(view: NotificationView): RenderedEmail {
  const what = WHAT[view.event];
  const when = formatExpiry(view.at);
  const subject = `Your secret ${view.shortkey}… ${what}`;
  const text = [
    `Your secret with the receipt ${view.shortkey}… ${what} on ${when}.`,
    '',
    view.event === 'refused' ? STILL_THERE : GONE,
    '',
    view.event === 'refused' ? REFUSED_NOTE : ASKED_NOTE,
    '',
  ].join('\n');
  const content = html`<p>Your secret with the receipt <strong>${view.shortkey}…</strong> ${what} on ${when}.</p>
<p>${view.event === 'refused' ? STILL_THERE : GONE}</p>
<p style="font-size: 13px; color: #666666;">${view.event === 'refused' ? REFUSED_NOTE : ASKED_NOTE}</p>
`;
  return { subject, text, html: emailDocument(subject, content) };
}

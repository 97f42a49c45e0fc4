import type { NotificationJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument, smallPrint } from './document.js';
import { mailMessages } from './messages/index.js';
import type { RenderedEmail } from './rendered.js';

type NotificationView = Pick<NotificationJob, 'event' | 'shortkey' | 'at' | 'locale'>;

/**
 * The e-mail that tells a creator what happened to their secret. It names the secret by its
 * receipt's short key, in the body only: no value, no key and no link, so forwarding or scanning
 * it opens nothing, and the subject says only what happened.
 */
export function renderNotificationEmail(view: NotificationView): RenderedEmail {
  const m = mailMessages(view.locale);
  const values = { event: view.event, shortkey: view.shortkey, when: m.dateTime(view.at) };
  const subject = m.text('notification.subject', { event: view.event });
  const state = view.event === 'refused' ? 'notification.stillThere' : 'notification.gone';
  const note = view.event === 'refused' ? 'notification.refusedNote' : 'notification.askedNote';
  const text = [m.text('notification.body', values), '', m.text(state), '', m.text(note), ''].join('\n');
  const content = html`<p>${m.html('notification.body', values)}</p>
<p>${m.html(state)}</p>
${smallPrint(m.html(note))}
`;
  return { subject, text, html: emailDocument(subject, content, m) };
}

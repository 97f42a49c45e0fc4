import type { SecretRequestJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument, linkButton, smallPrint } from './document.js';
import { displayName } from './escape.js';
import { mailMessages } from './messages/index.js';
import type { RenderedEmail } from './rendered.js';

type SecretRequestView = Pick<SecretRequestJob, 'requester' | 'label' | 'link' | 'expiresAt' | 'locale'>;

/**
 * The e-mail to the person a secret request names: who asks, for what, and the link that takes
 * the one secret. It says that only the requester can read what is sent, and that the link works once.
 */
export function renderSecretRequestEmail(view: SecretRequestView): RenderedEmail {
  const m = mailMessages(view.locale);
  const requester = displayName(view.requester, 100, m.text('common.someone'));
  const expires = m.dateTime(view.expiresAt);
  const subject = m.text('secretRequest.subject', { requester });
  const values = { requester, label: view.label, expires };
  const text = [
    m.text('secretRequest.intro', values),
    '',
    m.text('secretRequest.openText'),
    view.link,
    '',
    m.text('secretRequest.once', values),
    m.text('secretRequest.noReply'),
    '',
    m.text('common.notExpected'),
    '',
  ].join('\n');
  const content = html`<p>${m.html('secretRequest.intro', values)}</p>
${linkButton(view.link, m.text('secretRequest.button'), m)}
<p>${m.html('secretRequest.once', values)}</p>
<p>${m.html('secretRequest.noReply')}</p>
${smallPrint(m.html('common.notExpected'))}
`;
  return { subject, text, html: emailDocument(subject, content, m) };
}

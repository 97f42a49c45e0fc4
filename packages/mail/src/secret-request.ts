import type { SecretRequestJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument } from './document.js';
import { displayName } from './escape.js';
import { formatExpiry, type RenderedEmail } from './secret-link.js';

type SecretRequestView = Pick<SecretRequestJob, 'requester' | 'label' | 'link' | 'expiresAt'>;

/**
 * The e-mail to the person a secret request names: who asks, for what, and the link that takes
 * the one secret. It says that only the requester can read what is sent, and that the link works once.
 */
export function renderSecretRequestEmail(view: SecretRequestView): RenderedEmail {
  const requester = displayName(view.requester);
  const expires = formatExpiry(view.expiresAt);
  const subject = `${requester} asks you for a secret`;
  const text = [
    `${requester} asks you for a secret: ${view.label}`,
    '',
    'Open this link to send it:',
    view.link,
    '',
    `The link takes one secret, once, until ${expires}. Only ${requester} can read what you send, once.`,
    'Do not reply to this e-mail with the secret.',
    '',
    'If you did not expect this e-mail, you can ignore it.',
    '',
  ].join('\n');
  const content = html`<p><strong>${requester}</strong> asks you for a secret: <strong>${view.label}</strong></p>
<p><a href="${view.link}" style="display: inline-block; padding: 10px 18px; background: #1f4fd1; color: #ffffff; text-decoration: none; border-radius: 6px;">Send the secret</a></p>
<p style="font-size: 14px;">Or copy this link into your browser:<br><a href="${view.link}">${view.link}</a></p>
<p>The link takes one secret, once, until ${expires}. Only ${requester} can read what you send, once.</p>
<p>Do not reply to this e-mail with the secret.</p>
<p style="font-size: 13px; color: #666666;">If you did not expect this e-mail, you can ignore it.</p>
`;
  return { subject, text, html: emailDocument(subject, content) };
}

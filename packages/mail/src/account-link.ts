import type { AccountLinkJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument, linkButton, smallPrint } from './document.js';
import { displayName } from './escape.js';
import { mailMessages, type MailMessages } from './messages/index.js';
import type { RenderedEmail } from './rendered.js';

type AccountLinkView = Pick<AccountLinkJob, 'kind' | 'username' | 'link' | 'actions' | 'expiresAt' | 'locale'>;

const WORDING = { 'reset-password': 'resetPassword', 'verify-email': 'verifyEmail', 'execute-actions': 'executeActions' } as const;

/** What an administrator asks for, in order: "choose a new password, then confirm your e-mail address". */
function askFor(m: MailMessages, view: AccountLinkView): string {
  const actions = (view.actions ?? []).map((a) => m.text(`accountLink.actions.${a}`));
  if (view.kind !== 'execute-actions') return m.text(`accountLink.${WORDING[view.kind]}.ask`);
  if (actions.length === 0) return m.text('accountLink.executeActions.askAnything');
  const joined = actions.reduce((first, next) => m.text('accountLink.executeActions.then', { first, next }));
  return m.text('accountLink.executeActions.ask', { actions: joined });
}

/**
 * The e-mails the identity service sends about a person's own account: a password reset, a
 * confirmation of the address, or the actions an administrator asks for. Each holds a link that
 * works once and expires; never a password (the job has none).
 */
export function renderAccountLinkEmail(view: AccountLinkView): RenderedEmail {
  const m = mailMessages(view.locale);
  const wording = WORDING[view.kind];
  const subject = m.text(`accountLink.${wording}.subject`);
  const username = displayName(view.username, 100, m.text('common.someone'));
  const expires = m.dateTime(view.expiresAt);
  const ask = askFor(m, view);
  const ignore = m.text(`accountLink.${wording}.ignore`);
  const text = [m.text('accountLink.account', { username }), '', ask, view.link, '', m.text('accountLink.once', { expires }), ignore, ''].join('\n');
  const content = html`<p>${m.html('accountLink.account', { username })}</p>
<p>${ask}</p>
${linkButton(view.link, m.text(`accountLink.${wording}.button`), m)}
<p>${m.html('accountLink.once', { expires })}</p>
${smallPrint(ignore)}
`;
  return { subject, text, html: emailDocument(subject, content, m) };
}

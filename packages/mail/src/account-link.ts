import type { AccountAction, AccountLinkJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument } from './document.js';
import { displayName } from './escape.js';
import { formatExpiry, type RenderedEmail } from './secret-link.js';

type AccountLinkView = Pick<AccountLinkJob, 'kind' | 'username' | 'link' | 'actions' | 'expiresAt'>;

const ACTION_TEXT: Record<AccountAction, string> = {
  UPDATE_PASSWORD: 'choose a new password',
  CONFIGURE_TOTP: 'set up a second sign-in factor (an authenticator app)',
  VERIFY_EMAIL: 'confirm your e-mail address',
};

function wording(view: AccountLinkView): { subject: string; ask: string; button: string; ignore: string } {
  switch (view.kind) {
    case 'reset-password':
      return {
        subject: 'Reset your password',
        ask: 'Someone, hopefully you, asked to reset the password of your account. Open this link to choose a new one:',
        button: 'Choose a new password',
        ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      };
    case 'verify-email':
      return {
        subject: 'Confirm your e-mail address',
        ask: 'Confirm the e-mail address of your new account by opening this link; you can sign in afterwards:',
        button: 'Confirm my address',
        ignore: 'If you did not create this account, ignore this e-mail: it cannot be used without this confirmation.',
      };
    case 'execute-actions': {
      const actions = (view.actions ?? []).map((a) => ACTION_TEXT[a]);
      return {
        subject: 'Update your account',
        ask: `Your administrator asks you to ${actions.join(', then ') || 'update your account'}. Open this link to do so:`,
        button: 'Update my account',
        ignore: 'If you did not expect this e-mail, ask your administrator before opening the link.',
      };
    }
  }
}

/**
 * The e-mails the identity service sends about a person's own account: a password reset, a
 * confirmation of the address, or the actions an administrator asks for. Each holds a link that
 * works once and expires; never a password (the job has none).
 */
export function renderAccountLinkEmail(view: AccountLinkView): RenderedEmail {
  const { subject, ask, button, ignore } = wording(view);
  const username = displayName(view.username);
  const expires = formatExpiry(view.expiresAt);
  const text = [`Account: ${username}`, '', ask, view.link, '', `The link works only once and expires on ${expires}.`, ignore, ''].join('\n');
  const content = html`<p>Account: <strong>${username}</strong></p>
<p>${ask}</p>
<p><a href="${view.link}" style="display: inline-block; padding: 10px 18px; background: #1f4fd1; color: #ffffff; text-decoration: none; border-radius: 6px;">${button}</a></p>
<p style="font-size: 14px;">Or copy this link into your browser:<br><a href="${view.link}">${view.link}</a></p>
<p>The link works <strong>only once</strong> and expires on ${expires}.</p>
<p style="font-size: 13px; color: #666666;">${ignore}</p>
`;
  return { subject, text, html: emailDocument(subject, content) };
}

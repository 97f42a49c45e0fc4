import type { SecretLinkJob } from '@hush/queue';
import { html } from '@hush/common/html';
import { emailDocument } from './document.js';
import { displayName } from './escape.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

type SecretLinkView = Pick<SecretLinkJob, 'sender' | 'link' | 'passphraseRequired' | 'expiresAt' | 'recipientOnly' | 'keyApart'>;

// Built with the first e-mail, not with the module: a formatter loads the locale's ICU data, ~5 MB
// of the node binary's pages (more where the kernel maps them as huge pages) in every process that
// imports this package, sending or not.
let expiryFormat: Intl.DateTimeFormat | undefined;

/** "Tuesday 14 January 2025 at 12:00 UTC": absolute, as the mail may be read much later than sent. */
export function formatExpiry(expiresAt: number): string {
  expiryFormat ??= new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' });
  return `${expiryFormat.format(new Date(expiresAt * 1000))} UTC`;
}

/**
 * The e-mail that carries a secret's link. It names the sender, holds the link, says the
 * link works once and until when, and whether a passphrase is needed; it never holds the value or
 * the passphrase (the job has neither). Opening the link reveals nothing until the button is
 * pressed, so link scanners do not burn it; the text says so, to keep people from worrying.
 */
export function renderSecretLinkEmail(view: SecretLinkView): RenderedEmail {
  const sender = displayName(view.sender);
  const expires = formatExpiry(view.expiresAt);
  const passphraseText = view.passphraseRequired
    ? `You need a passphrase to read it. ${sender} will give it to you separately; it is not in this e-mail.`
    : 'No passphrase is needed to read it.';
  const recipientOnlyText = view.recipientOnly
    ? 'It is for this address only: to read it, sign in to Hush with an account of this address, or ask the page for a one-time code sent here.'
    : '';
  const keyApartText = view.keyApart
    ? `${sender} encrypted it before sending it, and its key is not in this e-mail (nor did our server ever have it): ${sender} will give you the full link, or its key, separately.`
    : '';

  const subject = `${sender} sent you a secret`;

  const text = [
    `${sender} sent you a secret.`,
    '',
    'Open this link to read it:',
    view.link,
    '',
    `The link works only once: after you read the secret, it is deleted. It expires on ${expires}.`,
    passphraseText,
    ...(recipientOnlyText ? [recipientOnlyText] : []),
    ...(keyApartText ? [keyApartText] : []),
    'Opening the link does not reveal the secret yet; you will press a button to see it.',
    '',
    'If you did not expect this e-mail, you can ignore it.',
    '',
  ].join('\n');

  const content = html`<p><strong>${sender}</strong> sent you a secret.</p>
<p><a href="${view.link}" style="display: inline-block; padding: 10px 18px; background: #1f4fd1; color: #ffffff; text-decoration: none; border-radius: 6px;">Open the secret</a></p>
<p style="font-size: 14px;">Or copy this link into your browser:<br><a href="${view.link}">${view.link}</a></p>
<p>The link works <strong>only once</strong>: after you read the secret, it is deleted. It expires on ${expires}.</p>
<p>${passphraseText}</p>
${recipientOnlyText && html`<p>${recipientOnlyText}</p>`}
${keyApartText && html`<p>${keyApartText}</p>`}
<p>Opening the link does not reveal the secret yet; you will press a button to see it.</p>
<p style="font-size: 13px; color: #666666;">If you did not expect this e-mail, you can ignore it.</p>
`;
  return { subject, text, html: emailDocument(subject, content) };
}

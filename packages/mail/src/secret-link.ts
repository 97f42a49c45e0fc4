import type { HandoverLabel, SecretLinkJob } from '@hush/queue';
import { html, type Html } from '@hush/common/html';
import { emailDocument, linkButton, smallPrint } from './document.js';
import { displayName } from './escape.js';
import { mailMessages, type MailMessages } from './messages/index.js';
import type { RenderedEmail } from './rendered.js';

export { formatExpiry, type RenderedEmail } from './rendered.js';

type SecretLinkView = Pick<SecretLinkJob, 'sender' | 'link' | 'passphraseRequired' | 'expiresAt' | 'recipientOnly' | 'keyApart' | 'handover' | 'locale'>;

/**
 * The e-mail that carries a secret's link. It names the sender, holds the link, says the
 * link works once and until when, and whether a passphrase is needed; it never holds the value or
 * the passphrase (the job has neither). Opening the link reveals nothing until the button is
 * pressed, so link scanners do not burn it; the text says so, to keep people from worrying.
 * A handed-over credential's e-mail (`handover`) says what it carries, who handed it over and
 * what to do with it instead of a bare "sent you a secret".
 */
export function renderSecretLinkEmail(view: SecretLinkView): RenderedEmail {
  const m = mailMessages(view.locale);
  const sender = displayName(view.sender, 100, m.text('common.someone'));
  const expires = m.dateTime(view.expiresAt);
  const notes: [Html, string][] = [
    [m.html('secretLink.once', { expires }), m.text('secretLink.once', { expires })],
    view.passphraseRequired ? pair(m, 'secretLink.passphrase', { sender }) : pair(m, 'secretLink.noPassphrase'),
    ...(view.recipientOnly ? [pair(m, 'secretLink.recipientOnly')] : []),
    ...(view.keyApart ? [pair(m, 'secretLink.keyApart', { sender })] : []),
    pair(m, 'secretLink.pressButton'),
  ];
  const head = view.handover ? handoverHead(m, view.handover, sender) : genericHead(m, sender);

  const text = [
    head.intro[1],
    '',
    ...(head.todo ? [head.todo[1], ''] : []),
    m.text('secretLink.openText'),
    view.link,
    '',
    ...notes.map(([, t]) => t),
    '',
    head.notExpected[1],
    '',
  ].join('\n');

  const content = html`<p>${head.intro[0]}</p>
${head.todo && html`<p>${head.todo[0]}</p>`}
${linkButton(view.link, head.button, m)}
${notes.map(([h]) => html`<p>${h}</p>\n`)}${smallPrint(head.notExpected[0])}
`;
  return { subject: head.subject, text, html: emailDocument(head.subject, content, m) };
}

type Pair = [Html, string];
const pair = (m: MailMessages, key: Parameters<MailMessages['text']>[0], values: Record<string, string> = {}): Pair => [m.html(key, values), m.text(key, values)];

function genericHead(m: MailMessages, sender: string) {
  return {
    subject: m.text('secretLink.subject', { sender }),
    intro: pair(m, 'secretLink.intro', { sender }),
    todo: undefined as Pair | undefined,
    button: m.text('secretLink.button'),
    notExpected: pair(m, 'common.notExpected'),
  };
}

function handoverHead(m: MailMessages, h: HandoverLabel, sender: string) {
  const name = displayName(h.name, 200);
  const by = h.by === undefined ? sender : displayName(h.by, 200);
  const what: Record<string, string> = h.id === undefined ? { kind: h.kind, name } : { kind: h.kind, name, id: displayName(h.id, 200) };
  const whatKey = h.id === undefined ? 'handover.what' : 'handover.whatWithId';
  return {
    subject: m.text('handover.subject', { kind: h.kind, name }),
    intro: [m.html('handover.intro', { by, what: m.html(whatKey, what) }), m.text('handover.intro', { by, what: m.text(whatKey, what) })] as Pair,
    todo: pair(m, 'handover.todo', { kind: h.kind }),
    button: m.text('handover.button'),
    notExpected: pair(m, 'handover.notExpected', { by }),
  };
}

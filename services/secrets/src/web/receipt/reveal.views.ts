import { html, type Html, type Interpolation } from '@hush/common';
import type { HandoverLabel } from '@hush/queue';
import { chromedPage, KEEP_FRAGMENT_SCRIPT, postForm, zkWords, type Chrome, type PageMessages } from '../shared/index.js';

/*
 * The recipient's pages: plain HTML forms that work without JavaScript, the shared layout and
 * stylesheet, and one small script (copy to clipboard) allowed by the page's CSP nonce. A
 * handed-over credential (`handover`) is named: what it is, who handed it over, what to do.
 */

/** How a page opens a zero-knowledge secret: its endpoint, the script, and the wrapped key of a request's answer. */
export interface ZkReveal {
  open: string;
  script: { src: string; integrity: string };
  wrappedKey?: string | undefined;
}

/** The form's attributes for the zero-knowledge script, hidden until it runs (without it, such a secret cannot be opened here). */
const zkFormAttributes = (zk: ZkReveal) => html` data-zk-reveal="${zk.open}"${zk.wrappedKey !== undefined ? html` data-wrapped-key="${zk.wrappedKey}"` : ''} hidden`;

/** The boxes the script opens when the link came without its key, or the answer needs the requester's opening key. */
const zkKeyBoxes = (m: PageMessages) => html`<div id="key-box" hidden><label for="key">${m.text('reveal.keyLabel')}</label>
<input id="key" type="text" autocomplete="off" spellcheck="false" aria-describedby="key-note">
<p class="note" id="key-note">${m.text('reveal.keyNote')}</p></div>
<div id="opening-box" hidden><label for="opening-key">${m.text('reveal.openingKeyLabel')}</label>
<input id="opening-key" type="text" autocomplete="off" spellcheck="false" aria-describedby="opening-note">
<p class="note" id="opening-note">${m.text('reveal.openingKeyNote')}</p></div>`;

/** The value's label: what a handed-over credential is, else "The secret". */
function valueLabel(m: PageMessages, handover: HandoverLabel | undefined): string {
  if (!handover) return m.text('reveal.valueLabel');
  const { kind, name, id } = handover;
  return id === undefined ? m.text('reveal.handoverValueLabel', { kind, name }) : m.text('reveal.handoverValueLabelWithId', { kind, name, id });
}

/** Before the script runs (and instead, without it), and where it puts what it decrypted. */
function zkAround(m: PageMessages, form: Html, handover: HandoverLabel | undefined): Html {
  return html`<noscript><p class="error" id="needs-script">${m.text('reveal.needsScript')}</p></noscript>
<p class="error" role="alert" tabindex="-1" data-zk-error${zkWords(m)} hidden></p>
${form}
<p class="note" role="status" data-zk-status hidden></p>
<div id="result" hidden>
<div id="text-box" hidden><label for="value">${valueLabel(m, handover)}</label>
<textarea id="value" readonly rows="4"></textarea>
<button type="button" id="copy" hidden>${m.text('chrome.copyToClipboard')}</button> <span id="copied" class="ok" hidden>${m.text('chrome.copiedShort')}</span></div>
<p id="file-box" hidden><a id="download" href="#result">${m.text('reveal.saveFile')}</a></p>
<p class="note" id="deleted">${m.text('reveal.zkDeleted')}</p>
</div>`;
}

/** What a handed-over credential is and what to do with it; for anything else, "someone sent you a secret". */
function heading(m: PageMessages, handover: HandoverLabel | undefined): Html {
  if (!handover) return html`<h1>${m.text('reveal.waitingHeading')}</h1>`;
  const { kind, name, id, by } = handover;
  return html`<h1 id="handover" data-kind="${kind}">${by === undefined ? m.html('reveal.handoverHeadingNoBy', { kind, name }) : m.html('reveal.handoverHeading', { kind, name, by })}</h1>
${id !== undefined && html`<p>${m.html('reveal.handoverId', { id })}</p>`}
<p id="handover-todo">${m.text('reveal.handoverTodo', { kind })}</p>`;
}

const intro = (m: PageMessages, zk: ZkReveal | undefined) =>
  html`<p id="intro">${m.html('reveal.once')}${zk && html` <span id="mode" data-mode="zero-knowledge">${m.text('reveal.zkIntro')}</span>`}</p>`;

const passphraseField = (m: PageMessages, autofocus: boolean) => html`<label for="passphrase">${m.text('reveal.passphrase')}</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="off" required${autofocus ? html` autofocus` : ''}>
<p class="note">${m.text('reveal.passphraseNote')}</p>`;

/** A zero-knowledge page's scripts: the copy button, and the switcher's links keeping the link's key. */
const zkScripts = (zk: ZkReveal | undefined) => (zk ? `${COPY}${KEEP_FRAGMENT_SCRIPT}` : undefined);

/** The link from the e-mail: says a secret waits; reveals nothing until the button is pressed. */
export function waitingPage(
  c: Chrome,
  o: { action: string; csrf: string; passphraseRequired: boolean; error?: string | undefined; zk?: ZkReveal | undefined; handover?: HandoverLabel | undefined },
): string {
  const { m } = c;
  const form = postForm(
    o.action,
    o.csrf,
    html`${o.zk && zkKeyBoxes(m)}${o.passphraseRequired && passphraseField(m, true)}
<button type="submit" id="reveal"${o.passphraseRequired ? '' : html` autofocus`}>${m.text('reveal.revealButton')}</button>`,
    o.zk && zkFormAttributes(o.zk),
  );
  return chromedPage(
    c,
    m.text('reveal.waitingTitle'),
    html`${heading(m, o.handover)}
${intro(m, o.zk)}
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${o.zk ? zkAround(m, form, o.handover) : form}`,
    zkScripts(o.zk),
    o.zk?.script,
  );
}

const COPY = `document.getElementById('copy').addEventListener('click',function(){var v=document.getElementById('value');v.select();if(navigator.clipboard){navigator.clipboard.writeText(v.value).then(function(){document.getElementById('copied').hidden=false})}else{document.execCommand('copy');document.getElementById('copied').hidden=false}});document.getElementById('copy').hidden=false;`;

export function revealedPage(c: Chrome, value: string, handover?: HandoverLabel): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('reveal.revealedTitle'),
    html`<h1>${m.text('reveal.revealedHeading')}</h1>
${handover && html`<p id="handover-todo">${m.text('reveal.handoverTodo', { kind: handover.kind })}</p>`}
<label for="value">${valueLabel(m, handover)}</label>
<textarea id="value" readonly rows="4">${value}</textarea>
<button type="button" id="copy" hidden>${m.text('chrome.copyToClipboard')}</button> <span id="copied" class="ok" hidden>${m.text('chrome.copiedShort')}</span>
<p class="note" id="deleted">${m.text('reveal.deleted')}</p>`,
    COPY,
  );
}

export function gonePage(c: Chrome): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('reveal.goneTitle'),
    html`<h1>${m.text('reveal.goneHeading')}</h1>
<p>${m.text('reveal.goneText')}</p>
<p class="note">${m.text('reveal.goneNote')}</p>`,
  );
}

/** A secret only one account may read, opened by anyone else: it says so, reveals nothing, and the secret stays. */
export function notYoursPage(c: Chrome, o: { signedInAs: string | undefined; signIn: string }): string {
  const { m } = c;
  const a = (chunks: Interpolation[]) => html`<a href="${o.signIn}" id="sign-in-to-read">${chunks}</a>`;
  return chromedPage(
    c,
    m.text('reveal.notYoursTitle'),
    html`<h1>${m.text('reveal.notYoursHeading')}</h1>
<p>${m.text('reveal.notYoursText')}</p>
${o.signedInAs === undefined ? html`<p>${m.html('reveal.notYoursSignIn', { a })}</p>` : html`<p id="other-account">${m.html('reveal.notYoursOther', { name: o.signedInAs })}</p>`}`,
  );
}

/**
 * A recipient-only secret, opened by someone who has not shown they are its recipient: who it is
 * for, and the two ways to show it (sign in, or a code by e-mail). Reveals nothing; the secret stays.
 */
export function recipientPage(
  c: Chrome,
  o: {
    recipient: string;
    signedInAs: string | undefined;
    signIn: string;
    codeAction: string;
    csrf: string;
    notice?: string | undefined;
    /** A zero-knowledge secret: the script keeps the link's key in this tab while its reader signs in or gets a code. */
    zk?: { script: { src: string; integrity: string } } | undefined;
  },
): string {
  const { m } = c;
  const a = (chunks: Interpolation[]) => html`<a href="${o.signIn}" id="sign-in-to-read">${chunks}</a>`;
  const recipient = (chunks: Interpolation[]) => html`<span id="recipient">${chunks}</span>`;
  return chromedPage(
    c,
    m.text('reveal.recipientTitle'),
    html`<h1${o.zk && html` data-zk-keep-key`}>${m.html('reveal.recipientHeading', { recipient: o.recipient, who: recipient })}</h1>
<p>${m.text('reveal.recipientText')}</p>
${o.signedInAs !== undefined && html`<p id="other-account" role="alert">${m.html('reveal.recipientOther', { name: o.signedInAs })}</p>`}
${o.notice && html`<p class="note">${o.notice}</p>`}
<h2>${m.text('reveal.isItForYou')}</h2>
${o.signedInAs === undefined ? html`<p>${m.html('reveal.recipientSignIn', { a })}</p>` : html`<p>${m.text('reveal.recipientSignOutFirst')}</p>`}
${postForm(o.codeAction, o.csrf, html`<button type="submit" id="send-code" class="secondary">${m.text('reveal.emailMeCode')}</button>`)}`,
    o.zk && KEEP_FRAGMENT_SCRIPT,
    o.zk?.script,
  );
}

/** The code sent: the form that takes it (and the passphrase, if the sender set one), then reveals the secret. */
export function codePage(
  c: Chrome,
  o: {
    action: string;
    codeAction: string;
    csrf: string;
    to: string;
    passphraseRequired: boolean;
    error?: string | undefined;
    notice?: string | undefined;
    zk?: ZkReveal | undefined;
    handover?: HandoverLabel | undefined;
  },
): string {
  const { m } = c;
  const form = postForm(
    o.action,
    o.csrf,
    html`${o.zk && zkKeyBoxes(m)}<label for="code">${m.text('reveal.codeLabel')}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" maxlength="8" required autofocus>
${o.passphraseRequired && passphraseField(m, false)}
<button type="submit" id="reveal">${m.text('reveal.revealButton')}</button>`,
    o.zk && zkFormAttributes(o.zk),
  );
  return chromedPage(
    c,
    m.text('reveal.codeTitle'),
    html`<h1>${m.text('reveal.codeHeading', { to: o.to })}</h1>
${o.notice && html`<p class="ok" role="status" id="code-sent">${o.notice}</p>`}
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${intro(m, o.zk)}
${o.zk ? zkAround(m, form, o.handover) : form}
<p class="note">${m.text('reveal.codeWait')}</p>
${postForm(o.codeAction, o.csrf, html`<button type="submit" id="send-code" class="secondary">${m.text('reveal.newCode')}</button>`)}`,
    zkScripts(o.zk),
    o.zk?.script,
  );
}

import { html, type Interpolation } from '@hush/common';
import type { MetadataResponse } from '../../secrets/presenter.js';
import { chromedPage, COPY_SCRIPT, copyField, duration, postForm, zkWords, type Chrome, type PageMessages } from '../shared/index.js';
import { receiptSection } from '../receipt/index.js';
import { NOTIFY_CHOICES } from './notify-choices.js';
import type { TtlOption } from './ttl-choices.js';

/** The counter under a secret's field: its words are the page's (`data-words`, "{count} of {max} characters"). */
export const COUNTER_SCRIPT = `var t=document.getElementById('secret'),c=document.getElementById('count');if(t&&c){var max=+c.getAttribute('data-max'),w=c.getAttribute('data-words');var u=function(){var n=Array.from(t.value).length;c.textContent=w.replace('{count}',n).replace('{max}',max);c.className=n>max?'error':'note'};t.addEventListener('input',u);u()}`;

export interface ShareForm {
  csrf: string;
  plan: { name: string; maxLength: number };
  /** A signed-out visitor sharing anonymously (ANONYMOUS_SHARES): no recipient, a sign-in offer. */
  anonymous?: boolean;
  ttlOptions: TtlOption[];
  values: {
    secret?: string | undefined;
    ttl: number;
    recipient?: string | undefined;
    recipientOnly?: boolean;
    notify?: readonly string[];
    notifyEmail?: string | undefined;
  };
  error?: string | undefined;
  /** The zero-knowledge script (it takes the form over when it runs) and the largest file it may attach (none for an anonymous visitor). */
  zk: { script: { src: string; integrity: string }; fileMaxBytes: number | undefined };
}

const mebibytes = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** A lifetime's select: the options in the page's words. */
export const ttlSelect = (m: PageMessages, id: string, options: TtlOption[], selected: number) =>
  html`<select id="${id}" name="${id}">${options.map((o) => html`<option value="${o.seconds}"${o.seconds === selected ? html` selected` : ''}>${duration(m, o.seconds)}</option>`)}</select>`;

export function sharePage(c: Chrome, f: ShareForm): string {
  const { m } = c;
  const fileMax = f.zk.fileMaxBytes;
  const signIn = (chunks: Interpolation[]) => html`<a href="/auth/sign-in">${chunks}</a>`;
  return chromedPage(
    c,
    m.text('share.title'),
    html`<h1>${m.text('share.title')}</h1>
<p class="note">${m.text('share.intro')}</p>
${f.anonymous && html`<p class="note" id="anonymous-note">${m.html('share.anonymous', { a: signIn })}</p>`}
${f.error && html`<p class="error" role="alert" id="error">${f.error}</p>`}
<p class="error" role="alert" tabindex="-1" data-zk-error${zkWords(m)} hidden></p>
${postForm(
  '/',
  f.csrf,
  html`<p id="mode" class="note" data-mode="server">${m.text('share.serverMode')}</p>
<label for="secret">${m.text('share.secret')}</label>
<textarea id="secret" name="secret" rows="6" required autocomplete="off" spellcheck="false" aria-describedby="count"${f.error ? '' : html` autofocus`}>${f.values.secret ?? ''}</textarea>
<p id="count" class="note" data-max="${f.plan.maxLength}" data-words="${m.text('share.counter', { count: '{count}', max: '{max}' })}" aria-live="polite">${m.text('share.upTo', {
    // Digits as the live counter writes them (no grouping).
    max: String(f.plan.maxLength),
    plan: f.plan.name,
  })}</p>
${
  fileMax !== undefined &&
  html`<div id="file-box" hidden><label for="file">${m.text('share.file')} <span class="note">${m.text('share.fileUpTo', { size: mebibytes(fileMax) })}</span></label>
<input id="file" type="file" aria-describedby="file-note">
<p class="note" id="file-note">${m.text('share.fileNote')}</p></div>`
}
<label for="passphrase">${m.text('share.passphrase')} <span class="note">${m.text('chrome.optional')}</span></label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" aria-describedby="passphrase-note">
<p class="note" id="passphrase-note">${m.text('share.passphraseNote')}</p>
<label for="ttl">${m.text('share.expiresAfter')}</label>
${ttlSelect(m, 'ttl', f.ttlOptions, f.values.ttl)}
${
  !f.anonymous &&
  html`<label for="recipient">${m.text('share.recipient')} <span class="note">${m.text('chrome.optional')}</span></label>
<input id="recipient" name="recipient" type="email" autocomplete="off" value="${f.values.recipient ?? ''}" aria-describedby="recipient-note">
<p class="note" id="recipient-note">${m.text('share.recipientNote')}</p>
<label><input type="checkbox" id="recipient_only" name="recipient_only" value="true" aria-describedby="recipient-only-note"${f.values.recipientOnly ? html` checked` : ''}> ${m.text(
    'share.recipientOnly',
  )}</label>
<p class="note" id="recipient-only-note">${m.text('share.recipientOnlyNote')}</p>
${notifyFieldset(m, f.values)}`
}
<div class="actions"><button type="submit" name="action" value="share" id="share">${m.text('share.create')}</button>
<button type="submit" name="action" value="generate" id="generate" class="secondary" formnovalidate>${m.text('share.generate')}</button></div>
<p class="note" role="status" data-zk-status hidden></p>`,
  html` data-zk-share="/share/zk"${fileMax !== undefined ? html` data-upload="/share/zk/file" data-file-max="${fileMax}"` : ''}`,
)}`,
    COUNTER_SCRIPT,
    f.zk.script,
  );
}

/** The notification boxes, in the page's words (the share page and the settings). */
export const notifyBoxes = (m: PageMessages, chosen: readonly string[] | undefined) =>
  NOTIFY_CHOICES.map(
    (event) => html`<label><input type="checkbox" name="notify_${event}" value="1"${chosen?.includes(event) ? html` checked` : ''}> ${m.text(`share.notify.${event}`)}</label>`,
  );

/** The creator's notifications: one box per event, and where to (default: the account's address). */
function notifyFieldset(m: PageMessages, values: ShareForm['values']) {
  return html`<fieldset id="notify"><legend>${m.text('share.notifyLegend')} <span class="note">${m.text('chrome.optional')}</span></legend>
${notifyBoxes(m, values.notify)}
<label for="notify_email">${m.text('share.notifyTo')} <span class="note">${m.text('share.notifyToNote')}</span></label>
<input id="notify_email" name="notify_email" type="email" autocomplete="email" value="${values.notifyEmail ?? ''}" aria-describedby="notify-note">
<p class="note" id="notify-note">${m.text('share.notifyNote')}</p></fieldset>`;
}

/** After "generate": the password, shown this once, and the receipt. */
export function generatedPage(c: Chrome, value: string, r: MetadataResponse, baseUrl: string, anonymous = false): string {
  const { m } = c;
  const mine = (chunks: Interpolation[]) => html`<a href="/secrets">${chunks}</a>`;
  return chromedPage(
    c,
    m.text('share.generatedTitle'),
    html`<h1>${m.text('share.generatedHeading')}</h1>
${copyField(m, 'value', m.text('share.generatedLabel'), value)}
<h2>${m.text('share.generatedLink')}</h2>
${receiptSection(m, r, { baseUrl })}
<p class="note">${anonymous ? m.text('share.toBurn') : m.html('share.toBurnSignedIn', { a: mine })}</p>`,
    COPY_SCRIPT,
  );
}

import { html } from '@hush/common';
import type { MetadataResponse } from '../../secrets/presenter.js';
import { chromedPage, COPY_SCRIPT, copyField, postForm, type Chrome } from '../shared/index.js';
import { receiptSection } from '../receipt/index.js';
import { NOTIFY_CHOICES } from './notify-choices.js';

const COUNTER_SCRIPT = `var t=document.getElementById('secret'),c=document.getElementById('count');if(t&&c){var max=+c.getAttribute('data-max');var u=function(){var n=Array.from(t.value).length;c.textContent=n+' of '+max+' characters';c.className=n>max?'error':'note'};t.addEventListener('input',u);u()}`;

export interface TtlOption {
  seconds: number;
  label: string;
}

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

const mebibytes = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MiB`;

export function sharePage(c: Chrome, f: ShareForm): string {
  const fileMax = f.zk.fileMaxBytes;
  return chromedPage(
    c,
    'Share a secret',
    html`<h1>Share a secret</h1>
<p class="note">You get a link that works once: the secret is deleted as soon as it is viewed, or when it expires.</p>
${f.anonymous && html`<p class="note" id="anonymous-note">You are not signed in: this secret is shared anonymously. <a href="/auth/sign-in">Sign in</a> to e-mail it to someone, share longer secrets and see your secrets later.</p>`}
${f.error && html`<p class="error" role="alert" id="error">${f.error}</p>`}
<p class="error" role="alert" tabindex="-1" data-zk-error hidden></p>
${postForm(
  '/',
  f.csrf,
  html`<p id="mode" class="note" data-mode="server">Encrypted by the server: JavaScript is off in this browser, so the server encrypts your secret when it arrives.</p>
<label for="secret">Secret</label>
<textarea id="secret" name="secret" rows="6" required autocomplete="off" spellcheck="false" aria-describedby="count"${f.error ? '' : html` autofocus`}>${f.values.secret ?? ''}</textarea>
<p id="count" class="note" data-max="${f.plan.maxLength}" aria-live="polite">Up to ${f.plan.maxLength} characters (${f.plan.name} plan).</p>
${
  fileMax !== undefined &&
  html`<div id="file-box" hidden><label for="file">A file <span class="note">(optional, up to ${mebibytes(fileMax)})</span></label>
<input id="file" type="file" aria-describedby="file-note">
<p class="note" id="file-note">Encrypted in your browser with its name and type, and opened once, like the text.</p></div>`
}
<label for="passphrase">Passphrase <span class="note">(optional)</span></label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" aria-describedby="passphrase-note">
<p class="note" id="passphrase-note">The recipient will need it to view the secret: tell it to them another way.</p>
<label for="ttl">Expires after</label>
<select id="ttl" name="ttl">${f.ttlOptions.map((o) => html`<option value="${o.seconds}"${o.seconds === f.values.ttl ? html` selected` : ''}>${o.label}</option>`)}</select>
${
  !f.anonymous &&
  html`<label for="recipient">Recipient's e-mail <span class="note">(optional)</span></label>
<input id="recipient" name="recipient" type="email" autocomplete="off" value="${f.values.recipient ?? ''}" aria-describedby="recipient-note">
<p class="note" id="recipient-note">We e-mail them the link, never the secret.</p>
<label><input type="checkbox" id="recipient_only" name="recipient_only" value="true" aria-describedby="recipient-only-note"${f.values.recipientOnly ? html` checked` : ''}> Only this recipient can read it</label>
<p class="note" id="recipient-only-note">They sign in with an account of that address, or confirm it with a code we e-mail them. Anyone else who opens the link sees nothing, and you are told.</p>
${notifyFieldset(f.values)}`
}
<div class="actions"><button type="submit" name="action" value="share" id="share">Create the secret link</button>
<button type="submit" name="action" value="generate" id="generate" class="secondary" formnovalidate>Generate a strong password instead</button></div>
<p class="note" role="status" data-zk-status hidden></p>`,
  html` data-zk-share="/share/zk"${fileMax !== undefined ? html` data-upload="/share/zk/file" data-file-max="${fileMax}"` : ''}`,
)}`,
    `${COUNTER_SCRIPT}`,
    f.zk.script,
  );
}

/** The creator's notifications: one box per event, and where to (default: the account's address). */
function notifyFieldset(values: ShareForm['values']) {
  return html`<fieldset id="notify"><legend>E-mail me when <span class="note">(optional)</span></legend>
${NOTIFY_CHOICES.map(
  ([event, label]) => html`<label><input type="checkbox" name="notify_${event}" value="1"${values.notify?.includes(event) ? html` checked` : ''}> ${label}</label>`,
)}
<label for="notify_email">To <span class="note">(optional: your account's verified address if it has one)</span></label>
<input id="notify_email" name="notify_email" type="email" autocomplete="email" value="${values.notifyEmail ?? ''}" aria-describedby="notify-note">
<p class="note" id="notify-note">The e-mail says what happened, never the secret or its link.</p></fieldset>`;
}

/** After "generate": the password, shown this once, and the receipt. */
export function generatedPage(c: Chrome, value: string, m: MetadataResponse, baseUrl: string, anonymous = false): string {
  return chromedPage(
    c,
    'Password generated',
    html`<h1>Your new password</h1>
${copyField('value', 'Generated password (shown only now)', value)}
<h2>Its secret link</h2>
${receiptSection(m, { baseUrl })}
<p class="note">To burn it, open its receipt link${anonymous ? '' : html` or <a href="/secrets">My secrets</a>`}.</p>`,
    COPY_SCRIPT,
  );
}

import { html, layout } from '@hush/common';
import type { PassphrasePolicy } from '../../http/secrets-params.js';
import { postForm } from '../shared/index.js';

/*
 * The pages of the person asked: plain HTML forms that work without JavaScript, the shared layout
 * (light and dark, narrow screens) and a character counter that only enhances.
 */

const COUNTER_SCRIPT = `var t=document.getElementById('secret'),c=document.getElementById('count');if(t&&c){var max=+c.getAttribute('data-max');var u=function(){var n=Array.from(t.value).length;c.textContent=n+' of '+max+' characters';c.className=n>max?'error':'note'};t.addEventListener('input',u);u()}`;

export interface AnswerForm {
  action: string;
  csrf: string;
  label: string;
  requester: string;
  passphrasePolicy: PassphrasePolicy;
  maxLength: number;
  error?: string | undefined;
  secret?: string | undefined;
  /** A zero-knowledge request: the API call the script makes, the requester's public key, the script. */
  zk?: { answer: string; publicKey: string; script: { src: string; integrity: string } } | undefined;
}

export function answerPage(f: AnswerForm, nonce: string): string {
  return layout({
    title: 'Send a secret',
    nonce,
    body: html`<h1>Send a secret to ${f.requester}</h1>
<p><strong>${f.requester}</strong> asks you for: <span id="request-label">${f.label}</span></p>
<p class="note">It is stored encrypted, only ${f.requester} can read it, and only once. This link takes one secret: after you send it, it closes.</p>
${
  f.zk &&
  html`<p id="mode" class="note" data-mode="server">${f.requester} asked for a secret encrypted in your browser, for them alone.</p>
<noscript><p class="error" id="needs-script">This request takes a secret encrypted in your browser, which needs this page’s script: turn JavaScript on for this site.</p></noscript>
<p class="error" role="alert" tabindex="-1" data-zk-error hidden></p>
<p class="ok" role="status" id="sent" hidden>Your secret for “${f.label}” was encrypted in your browser and is stored for ${f.requester}, who alone can read it, once. This link is now closed.</p>`
}
${f.error && html`<p class="error" role="alert" id="error">${f.error}</p>`}
${postForm(
  f.action,
  f.csrf,
  html`<label for="secret">Secret</label>
<textarea id="secret" name="secret" rows="6" required autocomplete="off" spellcheck="false" aria-describedby="count"${f.error ? '' : html` autofocus`}>${f.secret ?? ''}</textarea>
<p id="count" class="note" data-max="${f.maxLength}" aria-live="polite">Up to ${f.maxLength} characters.</p>
${
  f.passphrasePolicy !== 'none' &&
  html`<label for="passphrase">Passphrase${f.passphrasePolicy === 'optional' ? html` <span class="note">(optional)</span>` : ''}</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" aria-describedby="passphrase-note"${f.passphrasePolicy === 'required' ? html` required` : ''}>
<p class="note" id="passphrase-note">${f.requester} will need it to read the secret: tell it to them another way.</p>`
}
<div class="actions"><button type="submit" id="send">Send the secret</button></div>
<p class="note" role="status" data-zk-status hidden></p>`,
  f.zk && html` data-zk-answer="${f.zk.answer}" data-public-key="${f.zk.publicKey}"`,
)}`,
    external: f.zk?.script,
    script: COUNTER_SCRIPT,
  });
}

export function answeredPage(o: { requester: string; label: string }, nonce: string): string {
  return layout({
    title: 'Secret sent',
    nonce,
    body: html`<h1>Secret sent</h1>
<p class="ok" role="status" id="sent">Your secret for “${o.label}” is stored for ${o.requester}, who alone can read it, once.</p>
<p class="note">This link is now closed. You can close this page.</p>`,
  });
}

export function requestClosedPage(nonce: string): string {
  return layout({
    title: 'Request not available',
    nonce,
    body: html`<h1>This request is not available</h1>
<p>It has already been answered, was cancelled, or has expired. A request link takes one secret only.</p>
<p class="note">If you did not send a secret through it yourself, tell the person who asked.</p>`,
  });
}

import { html, type Interpolation } from '@hush/common';
import type { PassphrasePolicy } from '../../http/secrets-params.js';
import { chromedPage, KEEP_FRAGMENT_SCRIPT, postForm, zkWords, type Chrome } from '../shared/index.js';
import { COUNTER_SCRIPT } from '../share/index.js';

/*
 * The pages of the person asked: plain HTML forms that work without JavaScript, the shared layout
 * (light and dark, narrow screens) and a character counter that only enhances.
 */

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

export function answerPage(c: Chrome, f: AnswerForm): string {
  const { m } = c;
  const { requester, label } = f;
  const what = (chunks: Interpolation[]) => html`<span id="request-label">${chunks}</span>`;
  return chromedPage(
    c,
    m.text('answer.title'),
    html`<h1>${m.text('answer.heading', { requester })}</h1>
<p>${m.html('answer.asks', { requester, label, what })}</p>
<p class="note">${m.text('answer.note', { requester })}</p>
${
  f.zk &&
  html`<p id="mode" class="note" data-mode="server">${m.text('answer.zkMode', { requester })}</p>
<noscript><p class="error" id="needs-script">${m.text('answer.needsScript')}</p></noscript>
<p class="error" role="alert" tabindex="-1" data-zk-error${zkWords(m)} hidden></p>
<p class="ok" role="status" id="sent" hidden>${m.text('answer.zkSent', { requester, label })}</p>`
}
${f.error && html`<p class="error" role="alert" id="error">${f.error}</p>`}
${postForm(
  f.action,
  f.csrf,
  html`<label for="secret">${m.text('answer.secret')}</label>
<textarea id="secret" name="secret" rows="6" required autocomplete="off" spellcheck="false" aria-describedby="count"${f.error ? '' : html` autofocus`}>${f.secret ?? ''}</textarea>
<p id="count" class="note" data-max="${f.maxLength}" data-words="${m.text('share.counter', { count: '{count}', max: '{max}' })}" aria-live="polite">${m.text('answer.upTo', {
    max: String(f.maxLength),
  })}</p>
${
  f.passphrasePolicy !== 'none' &&
  html`<label for="passphrase">${m.text('answer.passphrase')}${f.passphrasePolicy === 'optional' ? html` <span class="note">${m.text('chrome.optional')}</span>` : ''}</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" aria-describedby="passphrase-note"${f.passphrasePolicy === 'required' ? html` required` : ''}>
<p class="note" id="passphrase-note">${m.text('answer.passphraseNote', { requester })}</p>`
}
<div class="actions"><button type="submit" id="send">${m.text('answer.send')}</button></div>
<p class="note" role="status" data-zk-status hidden></p>`,
  f.zk && html` data-zk-answer="${f.zk.answer}" data-public-key="${f.zk.publicKey}"`,
)}`,
    f.zk ? `${COUNTER_SCRIPT}${KEEP_FRAGMENT_SCRIPT}` : COUNTER_SCRIPT,
    f.zk?.script,
  );
}

export function answeredPage(c: Chrome, o: { requester: string; label: string }): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('answer.sentTitle'),
    html`<h1>${m.text('answer.sentTitle')}</h1>
<p class="ok" role="status" id="sent">${m.text('answer.sent', o)}</p>
<p class="note">${m.text('answer.sentNote')}</p>`,
  );
}

export function requestClosedPage(c: Chrome): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('answer.closedTitle'),
    html`<h1>${m.text('answer.closedHeading')}</h1>
<p>${m.text('answer.closedText')}</p>
<p class="note">${m.text('answer.closedNote')}</p>`,
  );
}

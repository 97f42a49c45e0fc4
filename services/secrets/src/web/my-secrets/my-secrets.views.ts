import { html, type Interpolation } from '@hush/common';
import { deliveryText, stateText } from '../receipt/index.js';
import { chromedPage, duration, postForm, when, type Chrome } from '../shared/index.js';
import type { MySecret } from './my-secrets.js';

export function mySecretsPage(c: Chrome, o: { items: MySecret[]; next: string | null; notice?: string | undefined; burnCsrf: string }): string {
  const { m } = c;
  const item = (s: MySecret) => {
    const unread = s.state === 'new' || s.state === 'viewed';
    const shortkey = s.metadata_shortkey;
    return html`<li data-shortkey="${shortkey}"><dl>
<dt>${m.text('mySecrets.secret')}</dt><dd><code>${shortkey}</code>${
      s.metadata_key && html` · <a href="/private/${s.metadata_key}" aria-label="${m.text('mySecrets.receiptOf', { shortkey })}">${m.text('mySecrets.receipt')}</a>`
    }</dd>
${s.request_label && html`<dt>${m.text('mySecrets.requested')}</dt><dd class="request-label">${s.request_label}</dd>`}
<dt>${m.text('mySecrets.state')}</dt><dd class="state" data-state="${s.state}">${stateText(m, s.state)}</dd>
<dt>${m.text('mySecrets.created')}</dt><dd>${when(s.created)}</dd>
<dt>${m.text('mySecrets.expires')}</dt><dd>${
      unread ? html`${when(s.created + s.ttl)} <span class="note">${m.text('format.inDuration', { duration: duration(m, s.secret_ttl) })}</span>` : '—'
    }</dd>
${s.recipient && html`<dt>${m.text('mySecrets.recipient')}</dt><dd>${s.recipient}</dd><dt>${m.text('mySecrets.delivery')}</dt><dd>${deliveryText(m, s.delivery_status)}</dd>`}
</dl>${
      unread &&
      postForm(
        '/secrets/burn',
        o.burnCsrf,
        html`<input type="hidden" name="ref" value="${s.ref}"><button type="submit" class="danger" aria-label="${m.text('mySecrets.burnLabel', { shortkey })}">${m.text(
          'mySecrets.burn',
        )}</button>`,
      )
    }</li>`;
  };
  const share = (chunks: Interpolation[]) => html`<a href="/">${chunks}</a>`;
  return chromedPage(
    c,
    m.text('mySecrets.title'),
    html`<h1>${m.text('mySecrets.title')}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${o.items.length === 0 ? html`<p>${m.html('mySecrets.empty', { a: share })}</p>` : html`<ul class="items">${o.items.map(item)}</ul>`}
${o.next !== null && html`<p><a href="/secrets?before=${o.next}" rel="next">${m.text('mySecrets.older')}</a></p>`}
<p class="note">${m.text('mySecrets.note')}</p>`,
  );
}

export function burnConfirmPage(c: Chrome, o: { ref: string; shortkey: string; csrf: string }): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('mySecrets.confirmTitle'),
    html`<h1>${m.html('mySecrets.confirmHeading', { shortkey: o.shortkey })}</h1>
<p>${m.text('mySecrets.confirmText')}</p>
${postForm(
  '/secrets/burn',
  o.csrf,
  html`<input type="hidden" name="ref" value="${o.ref}"><input type="hidden" name="confirm" value="yes">
<div class="actions"><button type="submit" class="danger" id="confirm-burn" autofocus>${m.text('mySecrets.confirmButton')}</button> <a href="/secrets">${m.text(
    'mySecrets.cancel',
  )}</a></div>`,
)}`,
  );
}

import { html } from '@hush/common';
import { chromedPage, DELIVERY_TEXT, duration, postForm, STATE_TEXT, when, type Chrome } from '../shared/index.js';
import type { MySecret } from './my-secrets.js';

export function mySecretsPage(c: Chrome, o: { items: MySecret[]; next: string | null; notice?: string | undefined; burnCsrf: string }): string {
  const item = (s: MySecret) => {
    const unread = s.state === 'new' || s.state === 'viewed';
    return html`<li data-shortkey="${s.metadata_shortkey}"><dl>
<dt>Secret</dt><dd><code>${s.metadata_shortkey}</code>${s.metadata_key && html` · <a href="/private/${s.metadata_key}" aria-label="Receipt of secret ${s.metadata_shortkey}">receipt</a>`}</dd>
${s.request_label && html`<dt>Requested</dt><dd class="request-label">${s.request_label}</dd>`}
<dt>State</dt><dd class="state" data-state="${s.state}">${STATE_TEXT[s.state]}</dd>
<dt>Created</dt><dd>${when(s.created)}</dd>
<dt>Expires</dt><dd>${unread ? html`${when(s.created + s.ttl)} <span class="note">(in ${duration(s.secret_ttl)})</span>` : '—'}</dd>
${s.recipient && html`<dt>Recipient</dt><dd>${s.recipient}</dd><dt>Delivery</dt><dd>${s.delivery_status ? DELIVERY_TEXT[s.delivery_status] : '—'}</dd>`}
</dl>${
      unread &&
      postForm(
        '/secrets/burn',
        o.burnCsrf,
        html`<input type="hidden" name="ref" value="${s.ref}"><button type="submit" class="danger" aria-label="Burn secret ${s.metadata_shortkey}">Burn…</button>`,
      )
    }</li>`;
  };
  return chromedPage(
    c,
    'My secrets',
    html`<h1>My secrets</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${o.items.length === 0 ? html`<p>No secrets yet. <a href="/">Share one</a>.</p>` : html`<ul class="items">${o.items.map(item)}</ul>`}
${o.next !== null && html`<p><a href="/secrets?before=${o.next}" rel="next">Older secrets</a></p>`}
<p class="note">A secret's receipt shows its link until it is viewed.</p>`,
  );
}

export function burnConfirmPage(c: Chrome, o: { ref: string; shortkey: string; csrf: string }): string {
  return chromedPage(
    c,
    'Burn this secret?',
    html`<h1>Burn secret <code>${o.shortkey}</code>?</h1>
<p>Nobody will be able to view it, and this cannot be undone.</p>
${postForm(
  '/secrets/burn',
  o.csrf,
  html`<input type="hidden" name="ref" value="${o.ref}"><input type="hidden" name="confirm" value="yes">
<div class="actions"><button type="submit" class="danger" id="confirm-burn" autofocus>Burn it</button> <a href="/secrets">Cancel</a></div>`,
)}`,
  );
}

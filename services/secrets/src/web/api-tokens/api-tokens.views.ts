import { html } from '@hush/common';
import { chromedPage, COPY_SCRIPT, copyField, postForm, when, type Chrome } from '../shared/index.js';

export interface TokenRow {
  id: string;
  label: string | null;
  created: number;
  lastUsed: number;
}

export function tokensPage(
  c: Chrome,
  o: { tokens: TokenRow[]; createCsrf: string; revokeCsrf: string; minted?: { token: string; curl: string } | undefined; notice?: string | undefined; error?: string | undefined },
): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('tokens.title'),
    html`<h1>${m.text('tokens.title')}</h1>
<p class="note">${m.text('tokens.intro')}</p>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${
  o.minted &&
  html`<section aria-labelledby="new-token"><h2 id="new-token">${m.text('tokens.newToken')}</h2>
<p class="ok" role="status">${m.text('tokens.copyNow')}</p>
${copyField(m, 'token', m.text('tokens.token'), o.minted.token)}
${copyField(m, 'curl', m.text('tokens.tryIt'), o.minted.curl)}</section>`
}
${
  o.tokens.length === 0
    ? html`<p>${m.text('tokens.none')}</p>`
    : html`<h2>${m.text('tokens.yours')}</h2><ul class="items">${o.tokens.map(
        (t) => html`<li><dl><dt>${m.text('tokens.label')}</dt><dd>${t.label ?? '—'}</dd><dt>${m.text('tokens.created')}</dt><dd>${when(t.created)}</dd><dt>${m.text(
          'tokens.lastUsed',
        )}</dt><dd>${t.lastUsed ? when(t.lastUsed) : m.text('format.never')}</dd></dl>
${postForm(
  '/tokens/revoke',
  o.revokeCsrf,
  html`<input type="hidden" name="id" value="${t.id}"><button type="submit" class="danger" aria-label="${m.text('tokens.revokeLabel', { label: t.label ?? t.id })}">${m.text(
    'tokens.revoke',
  )}</button>`,
)}</li>`,
      )}</ul>`
}
<h2>${m.text('tokens.create')}</h2>
${postForm(
  '/tokens',
  o.createCsrf,
  html`<label for="label">${m.text('tokens.label')}</label>
<input id="label" name="label" maxlength="100" required placeholder="${m.text('tokens.placeholder')}" autocomplete="off">
<button type="submit" id="create-token">${m.text('tokens.createButton')}</button>`,
)}`,
    COPY_SCRIPT,
  );
}

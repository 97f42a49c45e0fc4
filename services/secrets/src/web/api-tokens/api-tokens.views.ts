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
  return chromedPage(
    c,
    'API tokens',
    html`<h1>API tokens</h1>
<p class="note">For scripts and Onetime Secret clients: HTTP Basic with your username and a token. Each token can do everything you can do here.</p>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${
  o.minted &&
  html`<section aria-labelledby="new-token"><h2 id="new-token">Your new token</h2>
<p class="ok" role="status">Copy it now: it will not be shown again.</p>
${copyField('token', 'API token', o.minted.token)}
${copyField('curl', 'Try it', o.minted.curl)}</section>`
}
${
  o.tokens.length === 0
    ? html`<p>You have no API tokens.</p>`
    : html`<h2>Your tokens</h2><ul class="items">${o.tokens.map(
        (
          t,
        ) => html`<li><dl><dt>Label</dt><dd>${t.label ?? '—'}</dd><dt>Created</dt><dd>${when(t.created)}</dd><dt>Last used</dt><dd>${t.lastUsed ? when(t.lastUsed) : 'Never'}</dd></dl>
${postForm(
  '/tokens/revoke',
  o.revokeCsrf,
  html`<input type="hidden" name="id" value="${t.id}"><button type="submit" class="danger" aria-label="Revoke token ${t.label ?? t.id}">Revoke</button>`,
)}</li>`,
      )}</ul>`
}
<h2>Create a token</h2>
${postForm(
  '/tokens',
  o.createCsrf,
  html`<label for="label">Label</label>
<input id="label" name="label" maxlength="100" required placeholder="e.g. deploy script" autocomplete="off">
<button type="submit" id="create-token">Create token</button>`,
)}`,
    COPY_SCRIPT,
  );
}

import { CSRF_FIELD, html, layout, type Html } from '@hush/common';
import { API_MOUNT } from '../http/api.routes.js';
import type { MetadataResponse } from '../secrets/presenter.js';
import type { MySecret } from './my-secrets.js';
import { qrSvg } from './qr.js';

/*
 * The creator's pages: plain HTML forms that work without JavaScript, the shared layout and
 * stylesheet; scripts (copy buttons, the character counter) only enhance, under the page's nonce.
 */

export interface Chrome {
  nonce: string;
  /** The signed-in account, with the sign-out form's CSRF token. */
  user?: { name: string; signOutCsrf: string };
  current?: 'share' | 'secrets' | 'tokens';
}

/** Copy buttons: hidden until this script shows them; each copies the field named by data-copy. */
export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){var f=document.getElementById(b.getAttribute('data-copy'));var d=document.getElementById(b.getAttribute('data-done'));var ok=function(){if(d){d.hidden=false}};f.select();if(navigator.clipboard){navigator.clipboard.writeText(f.value).then(ok,function(){document.execCommand('copy');ok()})}else{document.execCommand('copy');ok()}})});`;

const COUNTER_SCRIPT = `var t=document.getElementById('secret'),c=document.getElementById('count');if(t&&c){var max=+c.getAttribute('data-max');var u=function(){var n=Array.from(t.value).length;c.textContent=n+' of '+max+' characters';c.className=n>max?'error':'note'};t.addEventListener('input',u);u()}`;

export const postForm = (action: string, csrf: string, content: Html, attrs: Html | string = '') =>
  html`<form method="post" action="${action}"${attrs}><input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
${content}</form>`;

/** The signed-in navigation (nothing for a signed-out visitor). */
export function nav(c: Pick<Chrome, 'user' | 'current'>): Html | false {
  if (!c.user) return false;
  const link = (href: string, key: Chrome['current'], text: string) => html`<a href="${href}"${c.current === key ? html` aria-current="page"` : ''}>${text}</a>`;
  return html`<nav aria-label="Main">${link('/', 'share', 'Share')}${link('/secrets', 'secrets', 'My secrets')}${link('/tokens', 'tokens', 'API tokens')}
${postForm('/auth/sign-out', c.user.signOutCsrf, html`<button type="submit" class="link" id="sign-out">Sign out <span class="note">(${c.user.name})</span></button>`)}</nav>`;
}

function page(c: Chrome, title: string, body: Html, script?: string): string {
  return layout({ title, nonce: c.nonce, body: html`${nav(c)}${body}`, script });
}

export const when = (unix: number) =>
  unix
    ? new Date(unix * 1000)
        .toISOString()
        .replace('T', ' ')
        .replace(/:\d\d\.\d+Z$/, ' UTC')
    : '—';

/** "in 3 hours", "in 5 days": the largest whole unit. */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${Math.max(0, seconds)} seconds`;
}

export const STATE_TEXT: Record<MetadataResponse['state'], string> = {
  new: 'Not yet viewed',
  viewed: 'Not yet viewed',
  received: 'Received: viewed by the recipient',
  burned: 'Burned: deleted unread',
  expired: 'Expired unread',
};

const DELIVERY_TEXT: Record<string, string> = { queued: 'E-mail queued', sent: 'E-mail sent', failed: 'E-mail failed' };

/** A read-only field with a copy button (shown by the script) and its "Copied" status. */
function copyField(id: string, label: string, value: string): Html {
  return html`<label for="${id}">${label}</label>
<div class="copy"><input id="${id}" type="text" readonly value="${value}"><button type="button" class="secondary" data-copy="${id}" data-done="${id}-copied" hidden>Copy</button></div>
<p class="ok" id="${id}-copied" role="status" hidden>Copied to the clipboard</p>`;
}

/**
 * The receipt's presentation, on the result page after sharing and on /private/<metadata_key>:
 * the secret link (with copy button and QR code) while the secret is unread, the receipt link,
 * state, expiry and delivery status, and the burn button while unread.
 */
export function receiptSection(m: MetadataResponse, o: { baseUrl: string; burn?: { action: string; csrf: string } | undefined }): Html {
  const unread = m.state === 'new' || m.state === 'viewed';
  const link = unread && m.secret_key ? `${o.baseUrl}/secret/${m.secret_key}` : undefined;
  const rows: [string, Html | string][] = [
    ['State', html`<span id="state" data-state="${m.state}">${STATE_TEXT[m.state]}</span>`],
    ['Created', when(m.created)],
    unread ? ['Expires', html`${when(m.created + m.ttl)} <span class="note">(in ${duration(m.secret_ttl)})</span>`] : ['Viewed', when(m.received)],
    ['Passphrase', m.passphrase_required ? 'Required' : 'None'],
  ];
  if (m.recipient) {
    rows.push(['Recipient', m.recipient]);
    rows.push([
      'Delivery',
      html`<span id="delivery" data-status="${m.delivery_status ?? ''}">${m.delivery_status ? DELIVERY_TEXT[m.delivery_status] : '—'}${
        m.delivery_updated ? ` (${when(m.delivery_updated)})` : ''
      }${m.delivery_reason ? `: ${m.delivery_reason}` : ''}</span>`,
    ]);
  }
  return html`${
    link
      ? html`${copyField('link', 'Secret link: send this to the recipient', link)}
<figure class="qr">${qrSvg(link, 'QR code of the secret link')}<figcaption class="note">Or scan it with a phone.</figcaption></figure>
<p class="note">You can see this link until the secret is viewed. Whoever opens it first can view the secret, once.</p>`
      : html`<p class="note" id="link-gone">The secret link is no longer shown: the secret has been ${m.state === 'received' ? 'viewed' : m.state}.</p>`
  }
<dl>${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${m.metadata_key && copyField('receipt', 'Receipt link: keep it to yourself (it can burn the secret)', `${o.baseUrl}/private/${m.metadata_key}`)}
${unread && o.burn && postForm(o.burn.action, o.burn.csrf, html`<button class="danger" type="submit" id="burn">Burn this secret</button>`)}`;
}

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
  values: { secret?: string | undefined; ttl: number; recipient?: string | undefined };
  error?: string | undefined;
}

export function sharePage(c: Chrome, f: ShareForm): string {
  return page(
    c,
    'Share a secret',
    html`<h1>Share a secret</h1>
<p class="note">You get a link that works once: the secret is deleted as soon as it is viewed, or when it expires.</p>
${f.anonymous && html`<p class="note" id="anonymous-note">You are not signed in: this secret is shared anonymously. <a href="/auth/sign-in">Sign in</a> to e-mail it to someone, share longer secrets and see your secrets later.</p>`}
${f.error && html`<p class="error" role="alert" id="error">${f.error}</p>`}
${postForm(
  '/',
  f.csrf,
  html`<label for="secret">Secret</label>
<textarea id="secret" name="secret" rows="6" required autocomplete="off" spellcheck="false" aria-describedby="count"${f.error ? '' : html` autofocus`}>${f.values.secret ?? ''}</textarea>
<p id="count" class="note" data-max="${f.plan.maxLength}" aria-live="polite">Up to ${f.plan.maxLength} characters (${f.plan.name} plan).</p>
<label for="passphrase">Passphrase <span class="note">(optional)</span></label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" aria-describedby="passphrase-note">
<p class="note" id="passphrase-note">The recipient will need it to view the secret: tell it to them another way.</p>
<label for="ttl">Expires after</label>
<select id="ttl" name="ttl">${f.ttlOptions.map((o) => html`<option value="${o.seconds}"${o.seconds === f.values.ttl ? html` selected` : ''}>${o.label}</option>`)}</select>
${
  !f.anonymous &&
  html`<label for="recipient">Recipient's e-mail <span class="note">(optional)</span></label>
<input id="recipient" name="recipient" type="email" autocomplete="off" value="${f.values.recipient ?? ''}" aria-describedby="recipient-note">
<p class="note" id="recipient-note">We e-mail them the link, never the secret.</p>`
}
<div class="actions"><button type="submit" name="action" value="share" id="share">Create the secret link</button>
<button type="submit" name="action" value="generate" id="generate" class="secondary" formnovalidate>Generate a strong password instead</button></div>`,
)}`,
    `${COUNTER_SCRIPT}`,
  );
}

/** After "generate": the password, shown this once, and the receipt. */
export function generatedPage(c: Chrome, value: string, m: MetadataResponse, baseUrl: string, anonymous = false): string {
  return page(
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

export function receiptPageBody(m: MetadataResponse, o: { baseUrl: string; burn: { action: string; csrf: string }; notice?: string | undefined; created?: boolean }): Html {
  return html`<h1>${o.created ? 'Your secret link is ready' : 'Secret receipt'}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${receiptSection(m, o)}
<p><a href="/">Share another secret</a></p>`;
}

export function mySecretsPage(c: Chrome, o: { items: MySecret[]; next: string | null; notice?: string | undefined; burnCsrf: string }): string {
  const item = (s: MySecret) => {
    const unread = s.state === 'new' || s.state === 'viewed';
    return html`<li data-shortkey="${s.metadata_shortkey}"><dl>
<dt>Secret</dt><dd><code>${s.metadata_shortkey}</code>${s.metadata_key && html` · <a href="/private/${s.metadata_key}" aria-label="Receipt of secret ${s.metadata_shortkey}">receipt</a>`}</dd>
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
  return page(
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
  return page(
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
  return page(
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

export function signedOutPage(nonce: string): string {
  return layout({
    title: 'Signed out',
    nonce,
    body: html`<h1>You are signed out</h1>
<p>You have been signed out of Hush and of the identity service.</p>
<p><a href="/auth/sign-in">Sign in again</a></p>`,
  });
}

export function signInProblemPage(nonce: string, message: string): string {
  return layout({
    title: 'Sign-in failed',
    nonce,
    body: html`<h1>Sign-in could not be completed</h1>
<p class="error" role="alert">${message}</p>
<p><a href="/auth/sign-in">Sign in again</a></p>`,
  });
}

export function webOffPage(nonce: string): string {
  return layout({
    title: 'Hush',
    nonce,
    body: html`<h1>Hush</h1>
<p>The web app is not configured on this server (WEB_CLIENT_SECRET is not set): secrets can be shared through the API at <code>${API_MOUNT}</code>.</p>
<p class="note">Operators: see docs/web-app.md.</p>`,
  });
}

import { html, type Html } from '@hush/common';
import { PASSPHRASE_POLICIES } from '../../http/secrets-params.js';
import type { SecretRequestResponse } from '../../secrets/requests.presenter.js';
import { chromedPage, COPY_SCRIPT, copyField, duration, postForm, when, type Chrome } from '../shared/index.js';
import type { TtlOption } from '../share/index.js';

export interface RequestForm {
  csrf: string;
  /** Focus the label field (not when a new link or an error is shown above the form). */
  autofocus?: boolean;
  ttlOptions: TtlOption[];
  values: { label?: string | undefined; ttl: number; secretTtl: number; passphrasePolicy?: string | undefined; recipient?: string | undefined };
  error?: string | undefined;
}

const STATE_TEXT: Record<SecretRequestResponse['state'], string> = {
  open: 'Open: waiting for the secret',
  fulfilled: 'Answered: the secret is in My secrets',
  cancelled: 'Cancelled',
  expired: 'Expired unanswered',
};

const POLICY_TEXT: Record<(typeof PASSPHRASE_POLICIES)[number], string> = {
  optional: 'They may set a passphrase',
  required: 'They must set a passphrase',
  none: 'No passphrase',
};

const ttlSelect = (id: string, options: TtlOption[], selected: number) =>
  html`<select id="${id}" name="${id}">${options.map((o) => html`<option value="${o.seconds}"${o.seconds === selected ? html` selected` : ''}>${o.label}</option>`)}</select>`;

function requestForm(f: RequestForm): Html {
  const policy = f.values.passphrasePolicy ?? 'optional';
  return postForm(
    '/ask',
    f.csrf,
    html`<input type="hidden" name="public_key" value="">
<p id="request-mode" class="note" hidden>Your browser makes a key pair for this request: whoever answers encrypts the secret for it in their browser, and only you can open it, with the opening key this browser keeps. The server never sees the secret.</p>
<label for="label">What do you need?</label>
<input id="label" name="label" type="text" required maxlength="200" autocomplete="off" value="${f.values.label ?? ''}" aria-describedby="label-note"${f.autofocus ? html` autofocus` : ''}>
<p class="note" id="label-note">Shown to the person you ask, e.g. “VPN password for the build server”. Never put a secret here.</p>
<label for="ttl">The link stays open for</label>
${ttlSelect('ttl', f.ttlOptions, f.values.ttl)}
<label for="secret_ttl">The secret is kept for</label>
${ttlSelect('secret_ttl', f.ttlOptions, f.values.secretTtl)}
<label for="passphrase_policy">Passphrase</label>
<select id="passphrase_policy" name="passphrase_policy">${PASSPHRASE_POLICIES.map((p) => html`<option value="${p}"${p === policy ? html` selected` : ''}>${POLICY_TEXT[p]}</option>`)}</select>
<label for="recipient">Their e-mail <span class="note">(optional)</span></label>
<input id="recipient" name="recipient" type="email" autocomplete="off" value="${f.values.recipient ?? ''}" aria-describedby="recipient-note">
<p class="note" id="recipient-note">We e-mail them the link, with your label. You can also hand it to them yourself.</p>
<div class="actions"><button type="submit" id="create-request">Create the request link</button></div>`,
    html` data-zk-request`,
  );
}

function requestItem(r: SecretRequestResponse, cancelCsrf: string): Html {
  return html`<li data-request="${r.id}"><dl>
<dt>For</dt><dd class="label">${r.label}</dd>
<dt>State</dt><dd class="state" data-state="${r.state}">${STATE_TEXT[r.state]}</dd>
<dt>Created</dt><dd>${when(r.created)}</dd>
${r.state === 'open' ? html`<dt>Open until</dt><dd>${when(r.expires)}</dd>` : ''}
${r.fulfilled ? html`<dt>Answered</dt><dd>${when(r.fulfilled)}</dd>` : ''}
<dt>Secret kept for</dt><dd>${duration(r.secret_ttl)}</dd>
<dt>Passphrase</dt><dd>${POLICY_TEXT[r.passphrase_policy]}</dd>
${r.recipient ? html`<dt>Asked</dt><dd>${r.recipient}</dd>` : ''}
</dl>${
    r.state === 'open' &&
    html`${r.link && copyField(`link-${r.id}`, `Link of request “${r.label}”`, r.link)}
${postForm('/ask/cancel', cancelCsrf, html`<input type="hidden" name="id" value="${r.id}"><button type="submit" class="secondary" aria-label="Cancel request ${r.label}">Cancel</button>`)}`
  }</li>`;
}

export function requestsPage(
  c: Chrome,
  o: {
    requests: SecretRequestResponse[];
    created?: string | undefined;
    notice?: string | undefined;
    form: RequestForm;
    cancelCsrf: string;
    script: { src: string; integrity: string };
  },
): string {
  const created = o.created === undefined ? undefined : o.requests.find((r) => r.id === o.created && r.state === 'open');
  return chromedPage(
    c,
    'Secret requests',
    html`<h1>${created ? 'Your request link is ready' : 'Ask for a secret'}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${
  created?.link &&
  html`<section aria-labelledby="created-heading"><h2 id="created-heading">Send this link to the person you ask</h2>
${copyField('request-link', `Request link for “${created.label}”`, created.link)}
<p class="note">Whoever opens it can send you one secret, once. Only you can read it: it appears in <a href="/secrets">My secrets</a>.</p>
${
  created.public_key &&
  html`<div data-zk-opening-key="${created.public_key}" hidden>${copyField('opening-key', 'Your opening key: the secret they send is encrypted for it', '')}
<p class="note" id="opening-key-note">This browser keeps it and opens the answer with it. To read the answer elsewhere (another browser, the command line), keep a copy: it is shown only now, and the server never had it.</p></div>`
}</section>`
}
${o.form.error && html`<p class="error" role="alert" id="error">${o.form.error}</p>`}
<p class="error" role="alert" tabindex="-1" data-zk-error hidden></p>
${created && html`<h2>Ask for another secret</h2>`}
<p class="note">A request link lets someone send you a secret, such as a password, without an account. Only you can read what they send.</p>
${requestForm({ ...o.form, autofocus: !created && !o.form.error })}
<h2>Your requests</h2>
${o.requests.length === 0 ? html`<p>No requests yet.</p>` : html`<ul class="items" id="requests">${o.requests.map((r) => requestItem(r, o.cancelCsrf))}</ul>`}`,
    COPY_SCRIPT,
    o.script,
  );
}

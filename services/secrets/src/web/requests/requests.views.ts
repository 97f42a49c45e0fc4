import { html, type Html, type Interpolation } from '@hush/common';
import { PASSPHRASE_POLICIES } from '../../http/secrets-params.js';
import type { SecretRequestResponse } from '../../secrets/requests.presenter.js';
import { chromedPage, COPY_SCRIPT, copyField, duration, postForm, when, zkWords, type Chrome, type PageMessages } from '../shared/index.js';
import { ttlSelect, type TtlOption } from '../share/index.js';

export interface RequestForm {
  csrf: string;
  /** Focus the label field (not when a new link or an error is shown above the form). */
  autofocus?: boolean;
  ttlOptions: TtlOption[];
  values: { label?: string | undefined; ttl: number; secretTtl: number; passphrasePolicy?: string | undefined; recipient?: string | undefined };
  error?: string | undefined;
}

function requestForm(m: PageMessages, f: RequestForm): Html {
  const policy = f.values.passphrasePolicy ?? 'optional';
  return postForm(
    '/ask',
    f.csrf,
    html`<input type="hidden" name="public_key" value="">
<p id="request-mode" class="note" hidden>${m.text('requests.zkMode')}</p>
<label for="label">${m.text('requests.label')}</label>
<input id="label" name="label" type="text" required maxlength="200" autocomplete="off" value="${f.values.label ?? ''}" aria-describedby="label-note"${
      f.autofocus ? html` autofocus` : ''
    }>
<p class="note" id="label-note">${m.text('requests.labelNote')}</p>
<label for="ttl">${m.text('requests.linkOpenFor')}</label>
${ttlSelect(m, 'ttl', f.ttlOptions, f.values.ttl)}
<label for="secret_ttl">${m.text('requests.keptFor')}</label>
${ttlSelect(m, 'secret_ttl', f.ttlOptions, f.values.secretTtl)}
<label for="passphrase_policy">${m.text('requests.passphrase')}</label>
<select id="passphrase_policy" name="passphrase_policy">${PASSPHRASE_POLICIES.map(
      (p) => html`<option value="${p}"${p === policy ? html` selected` : ''}>${m.text(`requests.policies.${p}`)}</option>`,
    )}</select>
<label for="recipient">${m.text('requests.recipient')} <span class="note">${m.text('chrome.optional')}</span></label>
<input id="recipient" name="recipient" type="email" autocomplete="off" value="${f.values.recipient ?? ''}" aria-describedby="recipient-note">
<p class="note" id="recipient-note">${m.text('requests.recipientNote')}</p>
<div class="actions"><button type="submit" id="create-request">${m.text('requests.create')}</button></div>`,
    html` data-zk-request`,
  );
}

function requestItem(m: PageMessages, r: SecretRequestResponse, cancelCsrf: string): Html {
  return html`<li data-request="${r.id}"><dl>
<dt>${m.text('requests.for')}</dt><dd class="label">${r.label}</dd>
<dt>${m.text('requests.state')}</dt><dd class="state" data-state="${r.state}">${m.text(`requests.states.${r.state}`)}</dd>
<dt>${m.text('requests.created')}</dt><dd>${when(r.created)}</dd>
${r.state === 'open' ? html`<dt>${m.text('requests.openUntil')}</dt><dd>${when(r.expires)}</dd>` : ''}
${r.fulfilled ? html`<dt>${m.text('requests.answered')}</dt><dd>${when(r.fulfilled)}</dd>` : ''}
<dt>${m.text('requests.secretKeptFor')}</dt><dd>${duration(m, r.secret_ttl)}</dd>
<dt>${m.text('requests.passphrase')}</dt><dd>${m.text(`requests.policies.${r.passphrase_policy}`)}</dd>
${r.recipient ? html`<dt>${m.text('requests.asked')}</dt><dd>${r.recipient}</dd>` : ''}
</dl>${
    r.state === 'open' &&
    html`${r.link && copyField(m, `link-${r.id}`, m.text('requests.linkOf', { label: r.label }), r.link)}
${postForm(
  '/ask/cancel',
  cancelCsrf,
  html`<input type="hidden" name="id" value="${r.id}"><button type="submit" class="secondary" aria-label="${m.text('requests.cancelLabel', { label: r.label })}">${m.text(
    'requests.cancel',
  )}</button>`,
)}`
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
  const { m } = c;
  const created = o.created === undefined ? undefined : o.requests.find((r) => r.id === o.created && r.state === 'open');
  const mine = (chunks: Interpolation[]) => html`<a href="/secrets">${chunks}</a>`;
  return chromedPage(
    c,
    m.text('requests.title'),
    html`<h1>${created ? m.text('requests.createdHeading') : m.text('requests.heading')}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${
  created?.link &&
  html`<section aria-labelledby="created-heading"><h2 id="created-heading">${m.text('requests.sendThis')}</h2>
${copyField(m, 'request-link', m.text('requests.linkFor', { label: created.label }), created.link)}
<p class="note">${m.html('requests.linkNote', { a: mine })}</p>
${
  created.public_key &&
  html`<div data-zk-opening-key="${created.public_key}" hidden>${copyField(m, 'opening-key', m.text('requests.openingKey'), '')}
<p class="note" id="opening-key-note">${m.text('requests.openingKeyNote')}</p></div>`
}</section>`
}
${o.form.error && html`<p class="error" role="alert" id="error">${o.form.error}</p>`}
<p class="error" role="alert" tabindex="-1" data-zk-error${zkWords(m)} hidden></p>
${created && html`<h2>${m.text('requests.another')}</h2>`}
<p class="note">${m.text('requests.intro')}</p>
${requestForm(m, { ...o.form, autofocus: !created && !o.form.error })}
<h2>${m.text('requests.yours')}</h2>
${o.requests.length === 0 ? html`<p>${m.text('requests.none')}</p>` : html`<ul class="items" id="requests">${o.requests.map((r) => requestItem(m, r, o.cancelCsrf))}</ul>`}`,
    COPY_SCRIPT,
    o.script,
  );
}

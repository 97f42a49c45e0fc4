import { html, layout, type Html } from '@hush/common';
import type { MetadataResponse } from '../../secrets/presenter.js';
import { COPY_SCRIPT, copyField, DELIVERY_TEXT, duration, nav, postForm, STATE_TEXT, when, type Chrome } from '../shared/index.js';
import { qrSvg } from './qr.js';

/**
 * The receipt's presentation, on the result page after sharing and on /private/<metadata_key>:
 * the secret link (with copy button and QR code) while the secret is unread, the receipt link,
 * state, expiry and delivery status, and the burn button while unread.
 */
export function receiptSection(m: MetadataResponse, o: { baseUrl: string; burn?: { action: string; csrf: string } | undefined }): Html {
  const unread = m.state === 'new' || m.state === 'viewed';
  const link = unread && m.secret_key ? `${o.baseUrl}/secret/${m.secret_key}` : undefined;
  // The lifecycle stays readable after the secret is gone, for as long as the receipt is kept.
  const ended: Record<Exclude<MetadataResponse['state'], 'new' | 'viewed'>, [string, Html | string]> = {
    received: ['Viewed', html`<span id="viewed">${when(m.received)}${m.received_by ? ` by ${m.received_by}` : ''}</span>`],
    burned: ['Burned', html`<span id="burned">${m.burned ? when(m.burned) : '—'}</span>`],
    expired: ['Expired', html`<span id="expired">${when(m.created + m.ttl)}</span>`],
  };
  const zk = m.zero_knowledge === true;
  const rows: [string, Html | string][] = [
    ['State', html`<span id="state" data-state="${m.state}">${STATE_TEXT[m.state]}</span>`],
    ['Created', when(m.created)],
    unread ? ['Expires', html`${when(m.created + m.ttl)} <span class="note">(in ${duration(m.secret_ttl)})</span>`] : ended[m.state as keyof typeof ended],
    ['Passphrase', m.passphrase_required ? 'Required' : 'None'],
    [
      'Encryption',
      html`<span id="encryption" data-mode="${zk ? 'zero-knowledge' : 'server'}">${
        zk ? 'In the browser that shared it (zero-knowledge): the server never had its key' : 'By the server'
      }</span>`,
    ],
  ];
  if (m.file_size !== undefined) rows.push(['File', html`<span id="file">${String(m.file_size)} bytes, encrypted (its name is encrypted too)</span>`]);
  if (m.request_label) rows.unshift(['Requested', html`<span id="request-label">${m.request_label}</span>`]);
  if (m.recipient) {
    rows.push(['Recipient', m.recipient_only ? html`<span id="recipient-only">${m.recipient}, who alone can read it</span>` : m.recipient]);
    if (m.recipient_only) rows.push(['Refused openings', html`<span id="refused">${String(m.refused_attempts ?? 0)}</span>`]);
    rows.push([
      'Delivery',
      html`<span id="delivery" data-status="${m.delivery_status ?? ''}">${m.delivery_status ? DELIVERY_TEXT[m.delivery_status] : '—'}${
        m.delivery_updated ? ` (${when(m.delivery_updated)})` : ''
      }${m.delivery_reason ? `: ${m.delivery_reason}` : ''}</span>`,
    ]);
  }
  return html`${
    link && m.request_label
      ? html`<p><a href="${link}" id="read">Read the secret</a> <span class="note">(once: it is deleted as you read it)</span></p>
${copyField('link', 'Its link: only your account can open it', link)}
<p class="note">Sent to you through your request. Whoever else opens the link is asked to sign in as you and sees nothing.</p>`
      : link && zk
        ? html`<div data-zk-receipt="${link}">${copyField('link', 'Secret link: send this to the recipient', link)}
<p class="ok" id="full-link" role="status" hidden>This is the full link, with its key: copy it now. It is shown only this once: the key was made in your browser and is kept nowhere.</p>
<p class="note" id="key-note">The key of this link was made in the browser that shared it and is kept nowhere, so the link above lacks it: send the full link you copied when you shared it. ${
            m.recipient ? 'The recipient’s e-mail holds this link without its key, and says you will give it to them.' : ''
          }</p></div>`
        : link
          ? html`${copyField('link', 'Secret link: send this to the recipient', link)}
<figure class="qr">${qrSvg(link, 'QR code of the secret link')}<figcaption class="note">Or scan it with a phone.</figcaption></figure>
<p class="note">You can see this link until the secret is viewed. ${
              m.recipient_only
                ? 'Only its recipient can view the secret, once: signed in with that address, or with a code sent to it.'
                : 'Whoever opens it first can view the secret, once.'
            }</p>`
          : html`<p class="note" id="link-gone">The secret link is no longer shown: the secret has been ${m.state === 'received' ? 'viewed' : m.state}.</p>`
  }
<dl>${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${m.metadata_key && copyField('receipt', 'Receipt link: keep it to yourself (it can burn the secret)', `${o.baseUrl}/private/${m.metadata_key}`)}
${unread && o.burn && postForm(o.burn.action, o.burn.csrf, html`<button class="danger" type="submit" id="burn">Burn this secret</button>`)}`;
}

function receiptPageBody(m: MetadataResponse, o: { baseUrl: string; burn: { action: string; csrf: string }; notice?: string | undefined; created?: boolean }): Html {
  return html`<h1>${o.created ? 'Your secret link is ready' : 'Secret receipt'}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${receiptSection(m, o)}
<p><a href="/">Share another secret</a></p>`;
}

export function receiptNotFoundPage(nonce: string): string {
  return layout({ title: 'Receipt not found', nonce, body: html`<h1>Receipt not found</h1><p>It has expired or the address is wrong.</p>` });
}

/** The creator's receipt: the same presentation as the share flow's result page. */
export function receiptPage(
  m: MetadataResponse,
  burn: { action: string; csrf: string },
  nonce: string,
  o: { baseUrl: string; notice?: string | undefined; created?: boolean; user?: Chrome['user'] | undefined; script: { src: string; integrity: string } },
): string {
  return layout({
    title: 'Receipt',
    nonce,
    body: html`${nav({ user: o.user })}${receiptPageBody(m, { baseUrl: o.baseUrl, burn, notice: o.notice, created: o.created === true })}`,
    // The zero-knowledge script completes the link right after a share (its key is in the fragment).
    external: m.zero_knowledge ? o.script : undefined,
    script: COPY_SCRIPT,
  });
}

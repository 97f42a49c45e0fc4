import { html, type Html, type Interpolation } from '@hush/common';
import type { MetadataResponse } from '../../secrets/presenter.js';
import { chromedPage, COPY_SCRIPT, copyField, duration, postForm, when, type Chrome, type PageMessages } from '../shared/index.js';
import { qrSvg } from './qr.js';

/** A secret's state and its e-mail's delivery, in the page's words. */
export const stateText = (m: PageMessages, state: MetadataResponse['state']) => m.text(`format.state.${state}`);
export const deliveryText = (m: PageMessages, status: string | null | undefined) =>
  status === 'queued' || status === 'sent' || status === 'failed' ? m.text(`format.delivery.${status}`) : m.text('format.none');

/**
 * The receipt's presentation, on the result page after sharing and on /private/<metadata_key>:
 * the secret link (with copy button and QR code) while the secret is unread, the receipt link,
 * state, expiry and delivery status, and the burn button while unread.
 */
export function receiptSection(m: PageMessages, r: MetadataResponse, o: { baseUrl: string; burn?: { action: string; csrf: string } | undefined }): Html {
  const unread = r.state === 'new' || r.state === 'viewed';
  const link = unread && r.secret_key ? `${o.baseUrl}/secret/${r.secret_key}` : undefined;
  // The lifecycle stays readable after the secret is gone, for as long as the receipt is kept.
  const ended: Record<Exclude<MetadataResponse['state'], 'new' | 'viewed'>, [string, Html | string]> = {
    received: [
      m.text('receipt.viewed'),
      html`<span id="viewed">${r.received_by ? m.text('receipt.viewedBy', { when: when(r.received), who: r.received_by }) : when(r.received)}</span>`,
    ],
    burned: [m.text('receipt.burned'), html`<span id="burned">${r.burned ? when(r.burned) : '—'}</span>`],
    expired: [m.text('receipt.expired'), html`<span id="expired">${when(r.created + r.ttl)}</span>`],
  };
  const zk = r.zero_knowledge === true;
  const rows: [string, Html | string][] = [
    [m.text('receipt.state'), html`<span id="state" data-state="${r.state}">${stateText(m, r.state)}</span>`],
    [m.text('receipt.created'), when(r.created)],
    unread
      ? [m.text('receipt.expires'), html`${when(r.created + r.ttl)} <span class="note">${m.text('format.inDuration', { duration: duration(m, r.secret_ttl) })}</span>`]
      : ended[r.state as keyof typeof ended],
    [m.text('receipt.passphrase'), r.passphrase_required ? m.text('receipt.passphraseRequired') : m.text('receipt.passphraseNone')],
    [
      m.text('receipt.encryption'),
      html`<span id="encryption" data-mode="${zk ? 'zero-knowledge' : 'server'}">${zk ? m.text('receipt.encryptionZk') : m.text('receipt.encryptionServer')}</span>`,
    ],
  ];
  if (r.file_size !== undefined) rows.push([m.text('receipt.file'), html`<span id="file">${m.text('receipt.fileText', { bytes: r.file_size })}</span>`]);
  if (r.request_label) rows.unshift([m.text('receipt.requested'), html`<span id="request-label">${r.request_label}</span>`]);
  if (r.recipient) {
    rows.push([
      m.text('receipt.recipient'),
      r.recipient_only ? html`<span id="recipient-only">${m.text('receipt.recipientOnly', { recipient: r.recipient })}</span>` : r.recipient,
    ]);
    if (r.recipient_only) rows.push([m.text('receipt.refused'), html`<span id="refused">${String(r.refused_attempts ?? 0)}</span>`]);
    rows.push([
      m.text('receipt.delivery'),
      html`<span id="delivery" data-status="${r.delivery_status ?? ''}">${deliveryText(m, r.delivery_status)}${r.delivery_updated ? ` (${when(r.delivery_updated)})` : ''}${
        r.delivery_reason ? `: ${r.delivery_reason}` : ''
      }</span>`,
    ]);
  }
  const read = (chunks: Interpolation[]) => html`<a href="${link}" id="read">${chunks}</a>`;
  const note = (chunks: Interpolation[]) => html`<span class="note">${chunks}</span>`;
  return html`${
    link && r.request_label
      ? html`<p>${m.html('receipt.readOnce', { a: read, note })}</p>
${copyField(m, 'link', m.text('receipt.ownLinkLabel'), link)}
<p class="note">${m.text('receipt.ownLinkNote')}</p>`
      : link && zk
        ? html`<div data-zk-receipt="${link}">${copyField(m, 'link', m.text('receipt.linkLabel'), link)}
<p class="ok" id="full-link" role="status" hidden>${m.text('receipt.fullLink')}</p>
<p class="note" id="key-note">${m.text('receipt.keyNote')} ${r.recipient ? m.text('receipt.keyNoteRecipient') : ''}</p></div>`
        : link
          ? html`${copyField(m, 'link', m.text('receipt.linkLabel'), link)}
<figure class="qr">${qrSvg(link, m.text('receipt.qrLabel'))}<figcaption class="note">${m.text('receipt.qrCaption')}</figcaption></figure>
<p class="note">${m.text('receipt.linkShownUntil')} ${r.recipient_only ? m.text('receipt.recipientOnlyNote') : m.text('receipt.anyoneNote')}</p>`
          : html`<p class="note" id="link-gone">${m.text('receipt.linkGone', { state: r.state })}</p>`
  }
<dl>${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${r.metadata_key && copyField(m, 'receipt', m.text('receipt.receiptLinkLabel'), `${o.baseUrl}/private/${r.metadata_key}`)}
${unread && o.burn && postForm(o.burn.action, o.burn.csrf, html`<button class="danger" type="submit" id="burn">${m.text('receipt.burnButton')}</button>`)}`;
}

export function receiptNotFoundPage(c: Chrome): string {
  const { m } = c;
  return chromedPage(c, m.text('receipt.notFoundTitle'), html`<h1>${m.text('receipt.notFoundTitle')}</h1><p>${m.text('receipt.notFoundText')}</p>`);
}

/** The creator's receipt: the same presentation as the share flow's result page. */
export function receiptPage(
  c: Chrome,
  r: MetadataResponse,
  burn: { action: string; csrf: string },
  o: { baseUrl: string; notice?: string | undefined; created?: boolean; script: { src: string; integrity: string } },
): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('receipt.title'),
    html`<h1>${o.created ? m.text('receipt.createdHeading') : m.text('receipt.heading')}</h1>
${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}
${receiptSection(m, r, { baseUrl: o.baseUrl, burn })}
<p><a href="/">${m.text('receipt.shareAnother')}</a></p>`,
    COPY_SCRIPT,
    // The zero-knowledge script completes the link right after a share (its key is in the fragment).
    r.zero_knowledge ? o.script : undefined,
  );
}

import { html, type Html } from '@hush/common';
import type { ReceiptView as Receipt } from '../admin-api/index.js';
import type { AdminKey, ConsoleRequest } from './admin-console-page.js';

const STATES = new Set(['new', 'viewed', 'received', 'burned', 'expired']);
const DELIVERY = new Set(['queued', 'sent', 'failed']);

const when = (unix: number) => new Date(unix * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** One receipt: to whom, the e-mail's delivery, and whether the owner opened the link. */
export function receiptItem(c: Pick<ConsoleRequest, 't' | 'h'>, r: Receipt): Html {
  const what = r.kind === 'client_secret' ? c.t('receipts.clientSecret') : c.t('receipts.password');
  const state = STATES.has(r.state) ? c.t(`receipts.state.${r.state}` as AdminKey) : r.state;
  const delivery = r.deliveryStatus && (DELIVERY.has(r.deliveryStatus) ? c.t(`receipts.delivery.${r.deliveryStatus}` as AdminKey) : r.deliveryStatus);
  return html`<li data-receipt="${r.id}">${c.h('receipts.to', { what, recipient: r.recipient, created: when(r.created) })}<br>
<span class="receipt-state">${state}${r.received ? html` (${when(r.received)})` : ''}</span>${delivery ? html` · ${delivery}` : ''} · ${c.t('receipts.until', { expires: when(r.expires) })}</li>`;
}

export function receiptList(c: Pick<ConsoleRequest, 't' | 'h'>, receipts: readonly Receipt[]): Html {
  return receipts.length === 0 ? html`<p class="note">${c.t('receipts.none')}</p>` : html`<ul class="items">${receipts.map((r) => receiptItem(c, r))}</ul>`;
}

import { html, type Html } from '@hush/common';

/** A handover's receipt as the admin API answers it (admin-api/handovers.routes.ts). */
export interface Receipt {
  id: string;
  kind: 'client_secret' | 'password';
  recipient: string;
  created: number;
  expires: number;
  state: string;
  deliveryStatus: string | null;
  received: number | null;
}

const STATES: Record<string, string> = {
  new: 'not opened yet',
  viewed: 'not opened yet',
  received: 'opened by its owner',
  burned: 'destroyed unread',
  expired: 'expired unread',
};

const DELIVERY: Record<string, string> = { queued: 'e-mail queued', sent: 'e-mail delivered', failed: 'e-mail failed' };

const when = (unix: number) => new Date(unix * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** One receipt: to whom, the e-mail's delivery, and whether the owner opened the link. */
export function receiptItem(r: Receipt): Html {
  const what = r.kind === 'client_secret' ? 'Client secret' : 'Password';
  return html`<li data-receipt="${r.id}"><strong>${what}</strong> to ${r.recipient} · ${when(r.created)}<br>
<span class="receipt-state">${STATES[r.state] ?? r.state}${r.received ? html` (${when(r.received)})` : ''}</span>${r.deliveryStatus ? html` · ${DELIVERY[r.deliveryStatus] ?? r.deliveryStatus}` : ''} · link until ${when(r.expires)}</li>`;
}

export function receiptList(receipts: readonly Receipt[]): Html {
  return receipts.length === 0 ? html`<p class="note">No credential handed over.</p>` : html`<ul class="items">${receipts.map(receiptItem)}</ul>`;
}

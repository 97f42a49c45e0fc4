import { html } from '@hush/common';
import type { NotifyEvent } from '@hush/queue';
import { chromedPage, postForm, type Chrome } from '../shared/index.js';
import { notifyBoxes } from '../share/share.views.js';

/** The account's settings: which notifications the share page asks for by default, and where they go. */
export function settingsPage(c: Chrome, o: { csrf: string; notifyOn: readonly NotifyEvent[]; address: string | undefined; notice?: string | undefined }): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('settings.title'),
    html`<h1>${m.text('settings.title')}</h1>
${o.notice && html`<p class="ok" role="status" id="saved">${o.notice}</p>`}
${postForm(
  '/settings',
  o.csrf,
  html`<fieldset id="notify-defaults"><legend>${m.text('settings.legend')}</legend>
${notifyBoxes(m, o.notifyOn)}
</fieldset>
<p class="note" id="notify-address">${o.address === undefined ? m.text('settings.noAddress') : m.html('settings.address', { address: o.address })} ${m.text('settings.perSecret')}</p>
<button type="submit" id="save">${m.text('settings.save')}</button>`,
)}`,
  );
}

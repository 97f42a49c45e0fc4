import { html } from '@hush/common';
import type { NotifyEvent } from '@hush/queue';
import { chromedPage, postForm, type Chrome } from '../shared/index.js';
import { NOTIFY_CHOICES } from '../share/notify-choices.js';

/** The account's settings: which notifications the share page asks for by default, and where they go. */
export function settingsPage(c: Chrome, o: { csrf: string; notifyOn: readonly NotifyEvent[]; address: string | undefined; notice?: string | undefined }): string {
  return chromedPage(
    c,
    'Settings',
    html`<h1>Settings</h1>
${o.notice && html`<p class="ok" role="status" id="saved">${o.notice}</p>`}
${postForm(
  '/settings',
  o.csrf,
  html`<fieldset id="notify-defaults"><legend>By default, e-mail me when a secret I share</legend>
${NOTIFY_CHOICES.map(([event, label]) => html`<label><input type="checkbox" name="notify_${event}" value="1"${o.notifyOn.includes(event) ? html` checked` : ''}> ${label}</label>`)}
</fieldset>
<p class="note" id="notify-address">${
    o.address === undefined
      ? 'Your account has no verified e-mail address: give one on the share page when you ask to be told.'
      : html`The e-mails go to your verified address, <strong>${o.address}</strong>, unless you give another when you share.`
  } You can change the choice for each secret on the share page.</p>
<button type="submit" id="save">Save</button>`,
)}`,
  );
}

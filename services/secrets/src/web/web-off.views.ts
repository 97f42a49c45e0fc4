import { html } from '@hush/common';
import { API_MOUNT } from '../http/api.routes.js';
import { chromedPage, type Chrome } from './shared/index.js';

export function webOffPage(c: Chrome): string {
  const { m } = c;
  return chromedPage(
    c,
    m.text('chrome.product'),
    html`<h1>${m.text('chrome.product')}</h1>
<p>${m.html('webOff.text', { mount: API_MOUNT })}</p>
<p class="note">${m.text('webOff.note')}</p>`,
  );
}

import { html, layout } from '@hush/common';
import { API_MOUNT } from '../http/api.routes.js';

export function webOffPage(nonce: string): string {
  return layout({
    title: 'Hush',
    nonce,
    body: html`<h1>Hush</h1>
<p>The web app is not configured on this server (WEB_CLIENT_SECRET is not set): secrets can be shared through the API at <code>${API_MOUNT}</code>.</p>
<p class="note">Operators: see docs/web-app.md.</p>`,
  });
}

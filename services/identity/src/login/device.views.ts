import { html } from '@hush/common';
import { identityPage, pageMessages } from '../pages/index.js';

/*
 * The device grant's pages (RFC 8628 §3.3), on the shared layout: plain forms, no script. Their
 * CSRF token is oidc-provider's `xsrf` (a secret kept in the signed, SameSite session cookie,
 * checked on every POST), sent back in a hidden field.
 */

const xsrfField = (xsrf: string) => html`<input type="hidden" name="xsrf" value="${xsrf}">`;

export function deviceInputPage(o: { action: string; xsrf: string; userCode?: string | undefined; error?: string | undefined; nonce: string }): string {
  return identityPage({
    m: pageMessages('en'),
    title: 'Connect a device',
    nonce: o.nonce,
    body: html`<h1>Connect a device</h1>
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : html`<p>Enter the code your device shows.</p>`}
<form method="post" action="${o.action}" autocomplete="off">
${xsrfField(o.xsrf)}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" required autofocus autocapitalize="characters" spellcheck="false" value="${o.userCode ?? ''}">
<button type="submit">Continue</button>
</form>`,
  });
}

export function deviceConfirmPage(o: { action: string; xsrf: string; userCode: string; clientName: string; nonce: string }): string {
  return identityPage({
    m: pageMessages('en'),
    title: 'Confirm the device',
    nonce: o.nonce,
    body: html`<h1>Connect ${o.clientName}?</h1>
<p>Continue only if your device shows this code, and you started signing in on it:</p>
<p><code>${o.userCode}</code></p>
<div class="actions">
<form method="post" action="${o.action}">${xsrfField(o.xsrf)}<input type="hidden" name="user_code" value="${o.userCode}"><input type="hidden" name="confirm" value="yes"><button type="submit" autofocus>Continue</button></form>
<form method="post" action="${o.action}">${xsrfField(o.xsrf)}<input type="hidden" name="user_code" value="${o.userCode}"><input type="hidden" name="abort" value="yes"><button class="secondary" type="submit">Deny</button></form>
</div>`,
  });
}

export function deviceSuccessPage(o: { clientName: string; nonce: string }): string {
  return identityPage({
    m: pageMessages('en'),
    title: 'Device connected',
    nonce: o.nonce,
    body: html`<h1>Device connected</h1><p>${o.clientName} is signed in. You can close this page and go back to your device.</p>`,
  });
}

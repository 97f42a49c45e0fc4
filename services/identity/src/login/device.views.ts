import { html } from '@hush/common';
import { identityPage, type PageMessages } from '../pages/index.js';

/*
 * The device grant's pages (RFC 8628 §3.3), in identity's frame: plain forms, no script, every
 * word from `m` (the request's language). Their CSRF token is oidc-provider's `xsrf` (a secret
 * kept in the signed, SameSite session cookie, checked on every POST), sent back in a hidden field.
 */

const xsrfField = (xsrf: string) => html`<input type="hidden" name="xsrf" value="${xsrf}">`;

export function deviceInputPage(o: { m: PageMessages; action: string; xsrf: string; userCode?: string | undefined; error?: string | undefined; nonce: string }): string {
  const { m } = o;
  return identityPage({
    m,
    title: m.text('device.inputTitle'),
    nonce: o.nonce,
    body: html`<h1>${m.text('device.inputTitle')}</h1>
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : html`<p>${m.text('device.inputIntro')}</p>`}
<form method="post" action="${o.action}" autocomplete="off">
${xsrfField(o.xsrf)}
<label for="user_code">${m.text('device.code')}</label>
<input id="user_code" name="user_code" required autofocus autocapitalize="characters" spellcheck="false" value="${o.userCode ?? ''}">
<button type="submit">${m.text('device.continue')}</button>
</form>`,
  });
}

export function deviceConfirmPage(o: { m: PageMessages; action: string; xsrf: string; userCode: string; clientName: string; nonce: string }): string {
  const { m } = o;
  return identityPage({
    m,
    title: m.text('device.confirmTitle'),
    nonce: o.nonce,
    body: html`<h1>${m.text('device.confirmHeading', { client: o.clientName })}</h1>
<p>${m.text('device.confirmIntro')}</p>
<p><code>${o.userCode}</code></p>
<div class="actions">
<form method="post" action="${o.action}">${xsrfField(o.xsrf)}<input type="hidden" name="user_code" value="${o.userCode}"><input type="hidden" name="confirm" value="yes"><button type="submit" autofocus>${m.text(
      'device.continue',
    )}</button></form>
<form method="post" action="${o.action}">${xsrfField(o.xsrf)}<input type="hidden" name="user_code" value="${o.userCode}"><input type="hidden" name="abort" value="yes"><button class="secondary" type="submit">${m.text(
      'device.deny',
    )}</button></form>
</div>`,
  });
}

export function deviceSuccessPage(o: { m: PageMessages; clientName: string | undefined; nonce: string }): string {
  const { m } = o;
  return identityPage({
    m,
    title: m.text('device.successTitle'),
    nonce: o.nonce,
    body: html`<h1>${m.text('device.successTitle')}</h1><p>${m.text('device.success', { client: o.clientName ?? m.text('device.theDevice') })}</p>`,
  });
}

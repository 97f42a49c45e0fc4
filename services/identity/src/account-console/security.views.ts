import { html, raw, type Html } from '@hush/common';
import { enrolmentForm, passkeyScript, recoveryCodesList, WEBAUTHN_SCRIPT_PATH, type Enrolment, type StoredCredential } from '../login/index.js';
import { csrfField, type PageMessages } from '../pages/index.js';

/* The account console's Security pages: the authenticator app (TOTP), recovery codes and passkeys; every word from `m`. */

export const PASSKEY_REGISTER_FORM = 'passkey-register';

/** A credential's day, in the page's language ("1 January 2026"). */
const day = (m: PageMessages, d: Date) => new Intl.DateTimeFormat(m.locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(d);

export function securityBody(o: {
  m: PageMessages;
  base: string;
  csrf: string;
  nonce: string;
  realmPath: string;
  totp: StoredCredential | undefined;
  codesLeft: number;
  passkeys: readonly StoredCredential[];
  registrationOptions: string;
  notice?: string | undefined;
  error?: string | undefined;
}): Html {
  const { m } = o;
  return html`${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}${o.error && html`<p class="error" role="alert">${o.error}</p>`}
<h2>${m.text('account.security.app')}</h2>
${
  o.totp
    ? html`<p>${m.text('account.security.appOn', { date: day(m, o.totp.createdAt), left: o.codesLeft })}</p>
<div class="actions">
<form method="post" action="${o.base}/recovery-codes">${csrfField(o.csrf)}<button type="submit" class="secondary">${m.text('account.security.newCodes')}</button></form>
<form method="post" action="${o.base}/totp/remove">${csrfField(o.csrf)}<button type="submit" class="danger">${m.text('account.security.removeApp')}</button></form>
</div>`
    : html`<p>${m.text('account.security.appOff')}</p>
<p><a href="${o.base}/totp">${m.text('account.security.setUp')}</a></p>`
}
<h2>${m.text('account.security.passkeys')}</h2>
<p>${m.text('account.security.passkeysIntro')}</p>
${
  o.passkeys.length > 0
    ? html`<ul class="items" aria-label="${m.text('account.security.yourPasskeys')}">${o.passkeys.map(
        (
          p,
        ) => html`<li><strong>${p.userLabel ?? m.text('account.security.passkey')}</strong> <span class="note">${m.text('account.security.added', { date: day(m, p.createdAt) })}</span>
<form method="post" action="${o.base}/passkeys/${p.id}/remove">${csrfField(o.csrf)}<button type="submit" class="secondary" aria-label="${m.text('account.security.removeLabel', {
          name: p.userLabel ?? '',
        })}">${m.text('account.security.remove')}</button></form></li>`,
      )}</ul>`
    : html`<p>${m.text('account.security.noPasskeys')}</p>`
}
<form method="post" action="${o.base}/passkeys" id="${PASSKEY_REGISTER_FORM}" data-options="${o.registrationOptions}" data-failed="${m.text('passkey.notUsed', { error: '{error}' })}">
${csrfField(o.csrf)}<input type="hidden" name="response" value="">
<label for="passkey-name">${m.text('account.security.newName')}</label>
<input id="passkey-name" name="name" maxlength="100" placeholder="${m.text('account.security.newNamePlaceholder')}" autocomplete="off">
<p class="note" data-needs-js>${m.text('account.security.needsScript')}</p>
<button type="submit" data-passkey hidden>${m.text('account.security.add')}</button>
</form>
<script nonce="${o.nonce}" src="${o.realmPath}${WEBAUTHN_SCRIPT_PATH}"></script>
<script nonce="${o.nonce}">${raw(passkeyScript(PASSKEY_REGISTER_FORM, 'registration'))}</script>`;
}

export function totpEnrolmentBody(o: { m: PageMessages; base: string; csrf: string; enrolment: Enrolment; error?: string | undefined }): Html {
  const { m } = o;
  return html`${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${enrolmentForm({ action: `${o.base}/totp`, csrf: o.csrf, enrolment: o.enrolment, m })}
<p><a href="${o.base}">${m.text('account.security.cancel')}</a></p>`;
}

export function recoveryCodesBody(o: { m: PageMessages; base: string; codes: readonly string[]; intro: string }): Html {
  return html`<p class="ok" role="status">${o.intro}</p>
${recoveryCodesList(o.codes, o.m)}
<p><a href="${o.base}">${o.m.text('account.security.done')}</a></p>`;
}

import { html, raw, type Html } from '@hush/common';
import { enrolmentForm, passkeyScript, recoveryCodesList, WEBAUTHN_SCRIPT_PATH, type Enrolment, type StoredCredential } from '../login/index.js';
import { csrfField } from '../pages/index.js';

/* The account console's Security pages: the authenticator app (TOTP), recovery codes and passkeys. */

export const PASSKEY_REGISTER_FORM = 'passkey-register';

const when = (d: Date) => d.toISOString().slice(0, 10);

export function securityBody(o: {
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
  return html`${o.notice && html`<p class="ok" role="status">${o.notice}</p>`}${o.error && html`<p class="error" role="alert">${o.error}</p>`}
<h2>Authenticator app</h2>
${
  o.totp
    ? html`<p>Set up on ${when(o.totp.createdAt)}. Signing in with your password also asks for a code from the app. ${o.codesLeft} of 10 recovery codes left.</p>
<div class="actions">
<form method="post" action="${o.base}/recovery-codes">${csrfField(o.csrf)}<button type="submit" class="secondary">New recovery codes</button></form>
<form method="post" action="${o.base}/totp/remove">${csrfField(o.csrf)}<button type="submit" class="danger">Remove the authenticator app</button></form>
</div>`
    : html`<p>Not set up. With an authenticator app, signing in with your password also asks for a code from your phone.</p>
<p><a href="${o.base}/totp">Set up an authenticator app</a></p>`
}
<h2>Passkeys</h2>
<p>A passkey signs you in without your password or a code, with your device's screen lock or a security key.</p>
${
  o.passkeys.length > 0
    ? html`<ul class="items" aria-label="Your passkeys">${o.passkeys.map(
        (p) => html`<li><strong>${p.userLabel ?? 'Passkey'}</strong> <span class="note">added ${when(p.createdAt)}</span>
<form method="post" action="${o.base}/passkeys/${p.id}/remove">${csrfField(o.csrf)}<button type="submit" class="secondary" aria-label="Remove passkey ${p.userLabel ?? ''}">Remove</button></form></li>`,
      )}</ul>`
    : html`<p>No passkeys yet.</p>`
}
<form method="post" action="${o.base}/passkeys" id="${PASSKEY_REGISTER_FORM}" data-options="${o.registrationOptions}">
${csrfField(o.csrf)}<input type="hidden" name="response" value="">
<label for="passkey-name">Name of the new passkey</label>
<input id="passkey-name" name="name" maxlength="100" placeholder="e.g. Work laptop" autocomplete="off">
<p class="note" data-needs-js>Adding a passkey needs JavaScript.</p>
<button type="submit" data-passkey hidden>Add a passkey</button>
</form>
<script nonce="${o.nonce}" src="${o.realmPath}${WEBAUTHN_SCRIPT_PATH}"></script>
<script nonce="${o.nonce}">${raw(passkeyScript(PASSKEY_REGISTER_FORM, 'registration'))}</script>`;
}

export function totpEnrolmentBody(o: { base: string; csrf: string; enrolment: Enrolment; error?: string | undefined }): Html {
  return html`${o.error && html`<p class="error" role="alert">${o.error}</p>`}
${enrolmentForm({ action: `${o.base}/totp`, csrf: o.csrf, enrolment: o.enrolment, submit: 'Confirm' })}
<p><a href="${o.base}">Cancel</a></p>`;
}

export function recoveryCodesBody(o: { base: string; codes: readonly string[]; intro: string }): Html {
  return html`<p class="ok" role="status">${o.intro}</p>
${recoveryCodesList(o.codes)}
<p><a href="${o.base}">Done</a></p>`;
}

import { CSRF_FIELD, html, raw, type Html } from '@hush/common';
import { csrfField, pageMessages, type PageMessages } from '../pages/index.js';
import type { Enrolment } from './second-factor.js';

/*
 * Page parts shared by the sign-in's second step and the account console's security pages, on the
 * shared layout: plain forms that work without JavaScript, except where WebAuthn needs it (the
 * passkey buttons say so, and stay hidden until the script shows them).
 */

/** The code field of the second step: a TOTP code or a recovery code. */
export function codeForm(o: { action: string; csrf: string; submit: string; m?: PageMessages }): Html {
  const m = o.m ?? pageMessages('en');
  return html`<form method="post" action="${o.action}" autocomplete="off">
${csrfField(o.csrf)}
<label for="code">${m.text('secondStep.code')}</label>
<input id="code" name="code" required autofocus autocomplete="one-time-code" spellcheck="false" autocapitalize="off" aria-describedby="code-help">
<p class="note" id="code-help">${m.text('secondStep.codeHelp')}</p>
<button type="submit">${o.submit}</button>
</form>`;
}

/** Enrolment: the QR code, the key in text for typing in by hand, and the confirmation code. */
export function enrolmentForm(o: { action: string; csrf: string; enrolment: Enrolment; m: PageMessages }): Html {
  const { m } = o;
  return html`<ol>
<li>${m.text('enrolment.stepApp')}</li>
<li>${m.text('enrolment.stepScan')}</li>
<li>${m.text('enrolment.stepCode')}</li>
</ol>
<figure class="qr"><span id="totp-qr-label" hidden>${m.text('enrolment.qr')}</span>${raw(o.enrolment.qrSvg)}<figcaption>${m.text('enrolment.key')} <code id="totp-secret">${o.enrolment.secretText}</code></figcaption></figure>
<form method="post" action="${o.action}" autocomplete="off">
${csrfField(o.csrf)}
<input type="hidden" name="pending" value="${o.enrolment.pending}">
<label for="code">${m.text('enrolment.code')}</label>
<input id="code" name="code" required autocomplete="one-time-code" inputmode="numeric" pattern="[0-9 ]{6,7}" spellcheck="false">
<button type="submit">${m.text('enrolment.confirm')}</button>
</form>`;
}

/** The ten recovery codes, shown once. */
export function recoveryCodesList(codes: readonly string[], m: PageMessages): Html {
  return html`<p>${m.text('enrolment.recoveryCodes')}</p>
<ul class="codes" id="recovery-codes" aria-label="${m.text('enrolment.recoveryCodesLabel')}">${codes.map((c) => html`<li><code>${c}</code></li>`)}</ul>`;
}

/** The client side of WebAuthn: @simplewebauthn/browser, served from our own origin (passkey-script.ts). */
export const WEBAUTHN_SCRIPT_PATH = '/resources/webauthn.js';

/**
 * The glue of a passkey form (`id`): its button, hidden until this runs (and only where the
 * browser has WebAuthn), runs the ceremony with the form's options, puts the answer in the hidden
 * `response` field and submits the form. `kind`: sign in or register. The options are in the
 * form's `data-options`, or, for a form with `data-options-url`, asked for when the button is
 * pressed (a POST of the form's CSRF token), so that no challenge is stored for a page only viewed.
 * What it says when the ceremony fails is the form's `data-failed` (the page's words, `{error}`
 * standing for the browser's error name): the script holds no words of its own.
 */
export function passkeyScript(id: string, kind: 'authentication' | 'registration'): string {
  const start = kind === 'authentication' ? 'startAuthentication' : 'startRegistration';
  return `(()=>{const f=document.getElementById(${JSON.stringify(id)});if(!f)return;const b=f.querySelector('[data-passkey]'),n=f.querySelector('[data-needs-js]'),w=window.SimpleWebAuthnBrowser;
if(!w||!window.PublicKeyCredential)return;b.hidden=false;n.hidden=true;
const options=async()=>{const u=f.dataset.optionsUrl;if(!u)return JSON.parse(f.dataset.options);const r=await fetch(u,{method:'POST',credentials:'same-origin',headers:{'Content-Type':'application/x-www-form-urlencoded'},body:new URLSearchParams({${CSRF_FIELD}:f.elements.${CSRF_FIELD}.value})});if(!r.ok)throw new Error('options '+r.status);return r.json();};
const go=async(e)=>{e.preventDefault();try{const r=await w.${start}({optionsJSON:await options()});f.elements.response.value=JSON.stringify(r);f.submit();}catch(err){n.textContent=(f.dataset.failed||'{error}').replace('{error}',err.name);n.hidden=false;n.setAttribute('role','alert');}};
f.addEventListener('submit',go);})();`;
}

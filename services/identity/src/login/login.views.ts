import { html, layout, raw, type Html } from '@hush/common';
import { csrfField } from '../pages/index.js';
import type { ScopeLine } from './scope-descriptions.js';

/*
 * Server-rendered pages on the shared layout: plain HTML forms (keyboard usable, no JavaScript),
 * the shared stylesheet under the page's CSP nonce, nothing loaded from third parties.
 */

/** A POST form carrying the interaction's CSRF token. */

export function loginPage(o: {
  action: string;
  abort: string;
  csrf: string;
  clientName: string;
  username?: string | undefined;
  error?: string;
  /** "Forgot password?" and, with REGISTRATION=true, "Register" (account-links/account-links.routes.ts). */
  forgotHref?: string;
  registerHref?: string | undefined;
  nonce: string;
  /** Another way to sign in (a passkey), after the password form, and its script. */
  extra?: Html;
  script?: string;
}): string {
  return layout({
    title: 'Sign in',
    nonce: o.nonce,
    script: o.script,
    body: html`<h1>Sign in to ${o.clientName}</h1>
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
<form method="post" action="${o.action}" autocomplete="on">
${csrfField(o.csrf)}
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus value="${o.username ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${o.extra}
${o.forgotHref && html`<p><a href="${o.forgotHref}">Forgot password?</a></p>`}
${o.registerHref && html`<p>New here? <a href="${o.registerHref}">Register</a></p>`}
<form method="post" action="${o.abort}">${csrfField(o.csrf)}<button class="secondary" type="submit">Cancel</button></form>`,
  });
}

/** The consent page: what the client asks for, each scope by its description; the answer is remembered until revoked in `accountHref`. */
export function consentPage(o: { action: string; abort: string; csrf: string; clientName: string; scopes: ScopeLine[]; accountHref: string; nonce: string }): string {
  return layout({
    title: `Allow ${o.clientName}?`,
    nonce: o.nonce,
    body: html`<h1>Allow ${o.clientName}?</h1>
<p>${o.clientName} asks to:</p>
<ul class="scopes">${o.scopes.map((s) => html`<li>${s.description}</li>`)}</ul>
<p class="hint">Your answer is remembered; you can revoke it under Applications in <a href="${o.accountHref}">your account</a>.</p>
<div class="actions">
<form method="post" action="${o.action}">${csrfField(o.csrf)}<button type="submit" autofocus>Allow</button></form>
<form method="post" action="${o.abort}">${csrfField(o.csrf)}<button class="secondary" type="submit">Deny</button></form>
</div>`,
  });
}

/** oidc-provider hands us its own form (with its xsrf field) to confirm an RP-initiated logout. */
export function logoutPage(form: string, nonce: string): string {
  return layout({
    title: 'Sign out',
    nonce,
    body: html`<h1>Sign out?</h1>${raw(form)}<form><button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>Yes, sign me out</button></form>`,
  });
}

export function loggedOutPage(nonce: string): string {
  return layout({ title: 'Signed out', nonce, body: html`<h1>You are signed out</h1>` });
}

import { html, raw, type Html } from '@hush/common';
import { csrfField, identityPage, pageMessages, type LanguageLink, type PageMessages } from '../pages/index.js';
import type { ScopeLine } from './scope-descriptions.js';

/*
 * The sign-in pages in identity's frame: plain HTML forms (keyboard usable, no JavaScript), the
 * shared stylesheet under the page's CSP nonce, nothing loaded from third parties, every word
 * from the page's messages (`m`, in its language).
 */

interface SignInPage {
  m: PageMessages;
  nonce: string;
  /** The language switcher (pages reached by a GET). */
  languages?: readonly LanguageLink[] | undefined;
}

export function loginPage(
  o: SignInPage & {
    action: string;
    abort: string;
    csrf: string;
    clientName: string;
    username?: string | undefined;
    error?: string;
    /** "Forgot password?" and, with REGISTRATION=true, "Register" (account-links/account-links.routes.ts). */
    forgotHref?: string;
    registerHref?: string | undefined;
    /** Another way to sign in (a passkey), after the password form, and its script. */
    extra?: Html;
    script?: string;
  },
): string {
  const { m } = o;
  return identityPage({
    m,
    title: m.text('login.title'),
    nonce: o.nonce,
    script: o.script,
    languages: o.languages,
    body: html`<h1>${m.text('login.heading', { client: o.clientName })}</h1>
${o.error && html`<p class="error" role="alert">${o.error}</p>`}
<form method="post" action="${o.action}" autocomplete="on">
${csrfField(o.csrf)}
<label for="username">${m.text('login.username')}</label>
<input id="username" name="username" autocomplete="username" required autofocus value="${o.username ?? ''}">
<label for="password">${m.text('login.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${m.text('login.submit')}</button>
</form>
${o.extra}
${o.forgotHref && html`<p><a href="${o.forgotHref}">${m.text('login.forgot')}</a></p>`}
${o.registerHref && html`<p>${m.html('login.register', { a: (chunks) => html`<a href="${o.registerHref}">${chunks}</a>` })}</p>`}
<form method="post" action="${o.abort}">${csrfField(o.csrf)}<button class="secondary" type="submit">${m.text('login.cancel')}</button></form>`,
  });
}

/** The consent page: what the client asks for, each scope by its description; the answer is remembered until revoked in `accountHref`. */
export function consentPage(o: SignInPage & { action: string; abort: string; csrf: string; clientName: string; scopes: ScopeLine[]; accountHref: string }): string {
  const { m } = o;
  return identityPage({
    m,
    title: m.text('consent.title', { client: o.clientName }),
    nonce: o.nonce,
    languages: o.languages,
    body: html`<h1>${m.text('consent.title', { client: o.clientName })}</h1>
<p>${m.text('consent.asks', { client: o.clientName })}</p>
<ul class="scopes">${o.scopes.map((s) => html`<li>${s.description}</li>`)}</ul>
<p class="note">${m.html('consent.remembered', { a: (chunks) => html`<a href="${o.accountHref}">${chunks}</a>` })}</p>
<div class="actions">
<form method="post" action="${o.action}">${csrfField(o.csrf)}<button type="submit" autofocus>${m.text('consent.allow')}</button></form>
<form method="post" action="${o.abort}">${csrfField(o.csrf)}<button class="secondary" type="submit">${m.text('consent.deny')}</button></form>
</div>`,
  });
}

/** oidc-provider hands us its own form (with its xsrf field) to confirm an RP-initiated logout. */
export function logoutPage(form: string, nonce: string, m: PageMessages = pageMessages('en')): string {
  return identityPage({
    m,
    title: m.text('logout.title'),
    nonce,
    body: html`<h1>${m.text('logout.heading')}</h1>${raw(form)}<form><button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>${m.text('logout.confirm')}</button></form>`,
  });
}

/** The page after a sign-out: it says the sign-out worked and, where there is one, links to sign in again. */
export function loggedOutPage(nonce: string, m: PageMessages = pageMessages('en'), signInHref?: string): string {
  return identityPage({
    m,
    title: m.text('signedOut.title'),
    nonce,
    body: html`<h1>${m.text('signedOut.heading')}</h1>
<p class="ok" role="status">${m.text('signedOut.body')}</p>
${signInHref && html`<p><a href="${signInHref}">${m.text('signedOut.signInAgain')}</a></p>`}`,
  });
}

import { html, layout, raw, type Html } from '@hush/common';
import { CONSOLE_STYLE } from './console-style.js';
import { csrfField } from './csrf-field.js';
import type { PageMessages } from './messages/index.js';
import type { LanguageLink } from './page-locale.js';

/** Where the product's name in the header leads: the person's account. */
const ACCOUNT_HOME = '/auth/realms/public/account/';

export interface IdentityPageOptions {
  m: PageMessages;
  nonce: string;
  /** The document's title (the h1 is the body's). */
  title: string;
  body: Html;
  script?: string | undefined;
  /** The language switcher's links (sign-in pages); none on a page that answers a form. */
  languages?: readonly LanguageLink[] | undefined;
  /** Who is signed in, and the sign-out form (the consoles). */
  signedIn?: { name: string; action: string; csrf: string } | undefined;
  /** A console page: the width of a desktop is used (console-style.ts). */
  wide?: boolean | undefined;
}

/**
 * The one frame of identity's pages: a header with the product's name, the language switcher
 * and, in the consoles, the signed-in person with "Sign out" (one wording everywhere); then the
 * page in its language on the shared layout.
 */
export function identityPage(o: IdentityPageOptions): string {
  return layout({ title: o.title, nonce: o.nonce, lang: o.m.locale, header: masthead(o), body: o.body, script: o.script });
}

function masthead(o: IdentityPageOptions): Html {
  const { m } = o;
  return html`${o.wide && html`<style nonce="${o.nonce}">${raw(CONSOLE_STYLE)}</style>`}<header class="masthead${o.wide ? ' wide' : ''}"><a class="product" href="${ACCOUNT_HOME}" aria-label="${m.text('chrome.productHome')}">${m.text('chrome.product')}</a>
${
  o.languages &&
  html`<nav aria-label="${m.text('chrome.language')}" class="languages">${o.languages.map(
    (l) => html`<a href="${l.href}" hreflang="${l.locale}" lang="${l.locale}"${l.current ? html` aria-current="true"` : ''}>${l.name}</a>`,
  )}</nav>`
}
${
  o.signedIn &&
  html`<form method="post" action="${o.signedIn.action}" aria-label="${m.text('chrome.account')}">${csrfField(o.signedIn.csrf)}<span class="note" id="signed-in-as">${o.signedIn.name}</span> <button type="submit" class="link" id="sign-out">${m.text('chrome.signOut')}</button></form>`
}</header>`;
}

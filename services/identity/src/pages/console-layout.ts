import { html, type Html } from '@hush/common';
import { identityPage } from './identity-page.js';
import { pageMessages, type PageMessages } from './messages/index.js';
import type { LanguageLink } from './page-locale.js';

export interface ConsoleNavItem {
  href: string;
  label: string;
}

export interface ConsolePageOptions {
  /** The console's name, the label of its navigation landmark ("Account", "Administration"). */
  console: string;
  nav: readonly ConsoleNavItem[];
  /** The nav entry of this page (its href), marked as the current page. */
  current?: string;
  /** The page's title, also its h1. */
  title: string;
  nonce: string;
  /** The session's CSRF token (`ConsoleSignIn.csrfToken(res)`) and the sign-out action (`signOutPath`). */
  csrf: string;
  signOutPath: string;
  /** Who is signed in, shown beside the sign-out button. */
  username: string;
  body: Html;
  /** The frame's words (English unless given). */
  m?: PageMessages | undefined;
  /** The language switcher's links, when the console offers one. */
  languages?: readonly LanguageLink[] | undefined;
}

/**
 * The one console layout, in identity's page frame: the header names the product and the
 * signed-in person beside "Sign out"; then a navigation landmark (the console's pages, the
 * current one marked: beside the content on a desktop, above it on a phone), the page's h1 and
 * body. Plain links and forms: keyboard usable, no
 * JavaScript.
 */
export function consolePage(o: ConsolePageOptions): string {
  return identityPage({
    m: o.m ?? pageMessages('en'),
    title: o.title,
    nonce: o.nonce,
    signedIn: { name: o.username, action: o.signOutPath, csrf: o.csrf },
    wide: true,
    languages: o.languages,
    body: html`<div class="console"><nav aria-label="${o.console}">
${o.nav.map((item) => html`<a href="${item.href}"${item.href === o.current ? html` aria-current="page"` : ''}>${item.label}</a>`)}
</nav>
<div class="content"><h1>${o.title}</h1>
${o.body}</div></div>`,
  });
}

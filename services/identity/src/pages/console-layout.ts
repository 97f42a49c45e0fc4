import { html, layout, type Html } from '@hush/common';
import { csrfField } from './csrf-field.js';

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
}

/**
 * The one console layout on the shared page layer: a navigation landmark (the console's pages, the
 * current one marked, the signed-in person and a sign-out button), then the page's h1 and body.
 * Plain links and forms: keyboard usable, no JavaScript.
 */
export function consolePage(o: ConsolePageOptions): string {
  return layout({
    title: o.title,
    nonce: o.nonce,
    body: html`<nav aria-label="${o.console}">
${o.nav.map((item) => html`<a href="${item.href}"${item.href === o.current ? html` aria-current="page"` : ''}>${item.label}</a>`)}
<form method="post" action="${o.signOutPath}">${csrfField(o.csrf)}<span class="note">${o.username}</span> <button type="submit" class="link">Sign out</button></form>
</nav>
<h1>${o.title}</h1>
${o.body}`,
  });
}

import type { Response } from 'express';
import { CSRF_FIELD, html, layout, nonceOf, type Html } from '@hush/common';
import type { Locale } from '@hush/common/i18n';
import type { PageMessages } from './messages/index.js';
import { languageLinks, localeOfPage, wordsOf } from './page-locale.js';

/*
 * What every page of the secrets service shares: one header (the product's name, the signed-in
 * person and the sign-out, the language switcher), plain HTML forms that work without JavaScript,
 * the shared layout and stylesheet, the signed-in navigation; scripts (copy buttons, the
 * character counter) only enhance, under the page's nonce. Every word comes from the page's
 * messages (`m`, in its language).
 */

export interface Chrome {
  nonce: string;
  /** The page's words, in its language. */
  m: PageMessages;
  /** The signed-in account, with the sign-out form's CSRF token. */
  user?: { name: string; signOutCsrf: string; email?: string } | undefined;
  current?: 'share' | 'secrets' | 'requests' | 'tokens' | 'settings' | undefined;
  /** The switcher's links to this page in each language; absent on a page that answers a form (following one would lose the answer). */
  languages?: { locale: Locale; name: string; href: string; current: boolean }[] | undefined;
}

/** The frame of the page `res` answers: its nonce and words, the switcher on a GET. */
export function pageFrame(res: Response, o: Pick<Chrome, 'user' | 'current'> = {}): Chrome {
  const locale = localeOfPage(res);
  const languages = res.req.method === 'GET' ? languageLinks(res.req, locale) : undefined;
  return { nonce: nonceOf(res), m: wordsOf(res), user: o.user, current: o.current, languages };
}

/** Copy buttons: hidden until this script shows them; each copies the field named by data-copy. */
export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){var f=document.getElementById(b.getAttribute('data-copy'));var d=document.getElementById(b.getAttribute('data-done'));var ok=function(){if(d){d.hidden=false}};f.select();if(navigator.clipboard){navigator.clipboard.writeText(f.value).then(ok,function(){document.execCommand('copy');ok()})}else{document.execCommand('copy');ok()}})});`;

/**
 * On a zero-knowledge page the link's key is in the fragment, which a link to another language
 * would drop: the switcher's links carry it along.
 */
export const KEEP_FRAGMENT_SCRIPT = `document.querySelectorAll('a[hreflang]').forEach(function(a){a.addEventListener('click',function(){a.href=a.href.split('#')[0]+location.hash})});`;

export const postForm = (action: string, csrf: string, content: Html, attrs: Html | string = '') =>
  html`<form method="post" action="${action}"${attrs}><input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
${content}</form>`;

/** The banner of every page: the product's name (home), the language switcher, who is signed in and the sign-out. */
function masthead(c: Chrome): Html {
  const { m } = c;
  return html`<header class="masthead"><a class="product" href="/" aria-label="${m.text('chrome.productHome')}">${m.text('chrome.product')}</a>
${
  c.languages &&
  html`<nav aria-label="${m.text('chrome.language')}" class="languages">${c.languages.map(
    (l) => html`<a href="${l.href}" hreflang="${l.locale}" lang="${l.locale}"${l.current ? html` aria-current="true"` : ''}>${l.name}</a>`,
  )}</nav>`
}
${
  c.user &&
  postForm(
    '/auth/sign-out',
    c.user.signOutCsrf,
    html`<span class="note" id="signed-in-as">${c.user.name}</span> <button type="submit" class="link" id="sign-out">${m.text('chrome.signOut')}</button>`,
    html` aria-label="${m.text('chrome.account')}"`,
  )
}</header>`;
}

/** The signed-in navigation (nothing for a signed-out visitor). */
export function nav(c: Pick<Chrome, 'user' | 'current' | 'm'>): Html | false {
  if (!c.user) return false;
  const { m } = c;
  const link = (href: string, key: Chrome['current'], text: string) => html`<a href="${href}"${c.current === key ? html` aria-current="page"` : ''}>${text}</a>`;
  return html`<nav aria-label="${m.text('chrome.navLabel')}">${link('/', 'share', m.text('chrome.share'))}${link('/secrets', 'secrets', m.text('chrome.mySecrets'))}${link(
    '/ask',
    'requests',
    m.text('chrome.requests'),
  )}${link('/tokens', 'tokens', m.text('chrome.tokens'))}${link('/settings', 'settings', m.text('chrome.settings'))}</nav>`;
}

/** A page of the service: the header, the navigation above the body for a signed-in person, the layout in the page's language. */
export function chromedPage(c: Chrome, title: string, body: Html, script?: string, external?: { src: string; integrity: string }): string {
  return layout({ title, nonce: c.nonce, lang: c.m.locale, header: masthead(c), body: html`${nav(c)}${body}`, script, external });
}

/** A read-only field with a copy button (shown by the script) and its "Copied" status. */
export function copyField(m: PageMessages, id: string, label: string, value: string): Html {
  return html`<label for="${id}">${label}</label>
<div class="copy"><input id="${id}" type="text" readonly value="${value}"><button type="button" class="secondary" data-copy="${id}" data-done="${id}-copied" hidden>${m.text('chrome.copy')}</button></div>
<p class="ok" id="${id}-copied" role="status" hidden>${m.text('chrome.copied')}</p>`;
}

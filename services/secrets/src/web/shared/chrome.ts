import { CSRF_FIELD, html, layout, type Html } from '@hush/common';

/*
 * What every page of the web app shares: plain HTML forms that work without JavaScript, the shared
 * layout and stylesheet, the signed-in navigation; scripts (copy buttons, the character counter)
 * only enhance, under the page's nonce.
 */

export interface Chrome {
  nonce: string;
  /** The signed-in account, with the sign-out form's CSRF token. */
  user?: { name: string; signOutCsrf: string; email?: string };
  current?: 'share' | 'secrets' | 'requests' | 'tokens' | 'settings';
}

/** Copy buttons: hidden until this script shows them; each copies the field named by data-copy. */
export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){var f=document.getElementById(b.getAttribute('data-copy'));var d=document.getElementById(b.getAttribute('data-done'));var ok=function(){if(d){d.hidden=false}};f.select();if(navigator.clipboard){navigator.clipboard.writeText(f.value).then(ok,function(){document.execCommand('copy');ok()})}else{document.execCommand('copy');ok()}})});`;

export const postForm = (action: string, csrf: string, content: Html, attrs: Html | string = '') =>
  html`<form method="post" action="${action}"${attrs}><input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
${content}</form>`;

/** The signed-in navigation (nothing for a signed-out visitor). */
export function nav(c: Pick<Chrome, 'user' | 'current'>): Html | false {
  if (!c.user) return false;
  const link = (href: string, key: Chrome['current'], text: string) => html`<a href="${href}"${c.current === key ? html` aria-current="page"` : ''}>${text}</a>`;
  return html`<nav aria-label="Main">${link('/', 'share', 'Share')}${link('/secrets', 'secrets', 'My secrets')}${link('/ask', 'requests', 'Requests')}${link('/tokens', 'tokens', 'API tokens')}${link('/settings', 'settings', 'Settings')}
${postForm('/auth/sign-out', c.user.signOutCsrf, html`<button type="submit" class="link" id="sign-out">Sign out <span class="note">(${c.user.name})</span></button>`)}</nav>`;
}

/** A page of the web app: the layout, with the navigation above the body (and the zero-knowledge script when `external` names it). */
export function chromedPage(c: Chrome, title: string, body: Html, script?: string, external?: { src: string; integrity: string }): string {
  return layout({ title, nonce: c.nonce, body: html`${nav(c)}${body}`, script, external });
}

/** A read-only field with a copy button (shown by the script) and its "Copied" status. */
export function copyField(id: string, label: string, value: string): Html {
  return html`<label for="${id}">${label}</label>
<div class="copy"><input id="${id}" type="text" readonly value="${value}"><button type="button" class="secondary" data-copy="${id}" data-done="${id}-copied" hidden>Copy</button></div>
<p class="ok" id="${id}-copied" role="status" hidden>Copied to the clipboard</p>`;
}

import { html, type ErrorPageRenderer } from '@hush/common';
import { flatten } from '@hush/common/i18n';
import { identityPage } from './identity-page.js';
import { PAGE_CATALOGUES, pageMessages, type PageKey } from './messages/index.js';
import { localeOfMessage } from './page-locale.js';

const KEYS = new Set(flatten(PAGE_CATALOGUES.en).keys());
/** Whether `text` names a message of the catalogue (the errors our pages word themselves) rather than being one. */
const isKey = (text: string): text is PageKey => KEYS.has(text);

/** Where a person goes from an error page: their account (the header's product name leads there too). */
const ACCOUNT_HOME = '/auth/realms/public/account/';

/**
 * Identity's error page, in its frame (the product's header) and the request's language: a fault
 * says only that something failed on our side (its detail is in the log, never here); any other
 * error shows its code and its message (a catalogue key is worded in the page's language).
 */
export const identityErrorPage: ErrorPageRenderer = (req, res, view) => {
  const m = pageMessages(localeOfMessage(req));
  if (!res.headersSent) res.setHeader('Content-Language', m.locale);
  const message = view.fault ? m.text(isKey(view.message) ? view.message : 'errors.fault') : isKey(view.message) ? m.text(view.message) : view.message;
  return identityPage({
    m,
    nonce: view.nonce,
    title: m.text(view.status >= 500 ? 'errors.title' : 'errors.cannotContinue'),
    body: html`<h1>${m.text('errors.heading')}</h1>
<p class="error" role="alert">${!view.fault && view.code && html`<code>${view.code}</code>${message && ': '}`}${message}</p>
<p><a href="${ACCOUNT_HOME}">${m.text('errors.home')}</a></p>`,
  });
};

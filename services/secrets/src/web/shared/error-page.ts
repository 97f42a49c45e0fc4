import type { Response } from 'express';
import { html, type ErrorPageRenderer } from '@hush/common';
import { chromedPage, pageFrame } from './chrome.js';
import type { PageKey } from './messages/index.js';

/** The refusals every page may meet, by their stable code, worded in the page's language. */
const WORDED: Readonly<Record<string, PageKey>> = {
  csrf_rejected: 'errors.formRefused',
  cross_origin: 'errors.crossOrigin',
  temporarily_unavailable: 'errors.unavailable',
};

/**
 * The secrets service's error page, in its frame (the product's header, the language switcher)
 * and the page's language: a fault says only that something failed on our side (its detail is in
 * the log); a refused form and an outage in the page's words; any other refusal by its code and
 * the service's own (English) message, which never holds a secret.
 */
export const secretsErrorPage: ErrorPageRenderer = (_req, res, view) => {
  const frame = pageFrame(res as Response);
  const { m } = frame;
  const key = view.fault ? 'errors.fault' : view.code !== undefined ? WORDED[view.code] : undefined;
  const message = key ? m.text(key) : view.message;
  return chromedPage(
    frame,
    m.text(view.status >= 500 ? 'errors.title' : 'errors.cannotContinue'),
    html`<h1>${m.text('errors.heading')}</h1>
<p class="error" role="alert">${!view.fault && !key && view.code && html`<code>${view.code}</code>${message && ': '}`}${message}</p>
<p><a href="/">${m.text('errors.home')}</a></p>`,
  );
};

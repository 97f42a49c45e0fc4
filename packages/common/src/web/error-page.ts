import type { IncomingMessage, ServerResponse } from 'node:http';
import { html } from './html.js';
import { layout } from './layout.js';
import { securePage } from './security-headers.js';

export interface ErrorPageOptions {
  status: number;
  /** Shown to the person: must be safe (a DomainError's message, never an internal detail). */
  message: string;
  /** A stable error code shown beside the message (identity shows OAuth's `error`). */
  code?: string | undefined;
  nonce: string;
}

/** The one error page, styled like every other page (its stylesheet carries the nonce). */
export function errorPage(o: ErrorPageOptions): string {
  return layout({
    title: o.status >= 500 ? 'Error' : 'Cannot continue',
    nonce: o.nonce,
    body: html`<h1>Something went wrong</h1>
<p class="error" role="alert">${o.code && html`<code>${o.code}</code>${o.message && ': '}`}${o.message}</p>`,
  });
}

/** What an error page shows; `fault`: an unexpected failure, whose `message` is the service's fixed fault text. */
export interface ErrorPageView extends ErrorPageOptions {
  fault: boolean;
}

/**
 * A service's own error page (its frame: the product's header, the page's language), given the
 * request it answers. Without one, `errorPage` (English, no header).
 */
export type ErrorPageRenderer = (req: IncomingMessage, res: ServerResponse, view: ErrorPageView) => string;

/**
 * Answers with the error page (the service's `render`, else `errorPage`): security headers (if a
 * middleware has not set them already), the status and any extra headers (Retry-After...). Works
 * on Express's and Koa's underlying response.
 */
export function sendErrorPage(
  req: IncomingMessage,
  res: ServerResponse,
  error: { status: number; message: string; code?: string | undefined; headers?: Readonly<Record<string, string>> | undefined; fault?: boolean | undefined },
  render?: ErrorPageRenderer,
): void {
  const nonce = securePage(req, res);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  const view = { status: error.status, message: error.message, code: error.code, nonce, fault: error.fault ?? false };
  const body = render ? render(req, res, view) : errorPage(view);
  res.statusCode = error.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

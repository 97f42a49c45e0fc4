import type { Request, Response } from 'express';
import { embeddablePage, toDomainError } from '@hush/common';
import { formErrorText, wordsOf } from '../shared/index.js';

/**
 * A page whose zero-knowledge script talks to this service (fetch): its CSP gains
 * `connect-src 'self'`, and nothing else (no framing, no other origin).
 */
export function fetchingPage(req: Request, res: Response): void {
  embeddablePage(req, res, { frameAncestors: [], connectSelf: true });
}

/**
 * A page opened from a zero-knowledge link (reveal, a request's answer): it names its URL to no
 * one, not even to our own origin. Its forms (a recipient's code) still pass the CSRF check's
 * origin test where browsers send Sec-Fetch-Site (HTTPS, localhost); the share page keeps the
 * pages' `same-origin`, so its no-JavaScript form works over plain HTTP too.
 */
export function linkPage(req: Request, res: Response): void {
  fetchingPage(req, res);
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * The answer of a page endpoint the script calls: a refusal as `{message, code}` with its status
 * (what the script shows, worded in the page's language as a form's refusal is); anything
 * unexpected goes on to the error handler.
 */
export function sendRefusal(res: Response, err: unknown): void {
  const known = toDomainError(err);
  if (!known || known.status >= 500) throw err;
  res
    .status(known.status)
    .set(known.headers)
    .json({ message: formErrorText(wordsOf(res), err), code: known.code });
}

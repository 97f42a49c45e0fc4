import type { Request, RequestHandler, Response } from 'express';
import { formField } from '@hush/common';
import { NOTIFY_EVENTS, type NotifyEvent } from '@hush/queue';
import type { PreferencesRepository } from '../../accounts/preferences.repository.js';
import { isAnonymous } from '../../auth/principal.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { PageContext, PageSessions } from '../shared/index.js';

export interface ShareOptions {
  /**
   * ANONYMOUS_SHARES: the share page (GET and POST /) also serves a signed-out visitor, as the
   * anonymous principal (its plan, no recipient), limited per IP by `limiter`; the form's CSRF
   * token is then bound to the browser instead of a session.
   */
  anonymous?: { limiter: RateLimiter } | undefined;
  /** The accounts' settings: the notifications a new secret asks for by default. */
  preferences?: Pick<PreferencesRepository, 'get'> | undefined;
}

/** The form's notification boxes (`notify_<event>`) as the API's `notify` events. */
export function notifyChoices(req: { body?: unknown }): NotifyEvent[] {
  return NOTIFY_EVENTS.filter((event) => formField(req, `notify_${event}`) !== undefined);
}

/**
 * The share's options as the form sends them (the classic form and the zero-knowledge script
 * alike): lifetime, recipient, notifications, whose address defaults to the account's verified one
 * (web accounts are usernames, not addresses).
 */
export function shareFormOptions(req: { body?: unknown }, principal: { email?: string | undefined }, locale: string) {
  return {
    // The page's language: the recipient's e-mail is written in it.
    locale,
    ttl: formField(req, 'ttl'),
    recipient: formField(req, 'recipient'),
    recipient_only: formField(req, 'recipient_only'),
    notify: notifyChoices(req).join(','),
    notify_email: formField(req, 'notify_email')?.trim() || principal.email,
  };
}

/** A recipient's and a notification address, the form's buttons, boxes and choices. */
export const SHORT_FIELDS_CHARACTERS = 640;

/**
 * Who may share from the page and how the form is guarded, for the form's POST and the
 * zero-knowledge script's calls alike: the session (or, with ANONYMOUS_SHARES, an anonymous
 * visitor), the form's CSRF token (bound to the session, or to the browser), the rate limit.
 */
export interface ShareAccess {
  sharer: RequestHandler;
  isAnonymousVisitor: (res: Response) => boolean;
  csrf: (req: Request, res: Response) => string;
  /** Throws unless `req` (a form, or `{ body: { csrf } }` with the token sent another way) carries the form's token. */
  checkCsrf: (req: Request | { body: { csrf: string | undefined } }, res: Response) => void;
  limit: RequestHandler;
}

export function shareAccess(ctx: PageContext, sessions: PageSessions, options: ShareOptions): ShareAccess {
  const { forms } = ctx;
  const anonymous = options.anonymous && { limit: options.anonymous.limiter.byIp() };
  const isAnonymousVisitor = (res: Response) => isAnonymous(sessions.principalOf(res));
  const byAccount = ctx.limiter.byAccount();
  return {
    sharer: anonymous ? sessions.signedInOrAnonymous : sessions.signedIn,
    isAnonymousVisitor,
    csrf: (req, res) => (isAnonymousVisitor(res) ? forms.browser.issue(req, res, 'share') : sessions.csrfToken(sessions.sessionOf(res), 'share')),
    checkCsrf: (req, res) => {
      // The browser-bound token needs the request's cookie: the form's own request, or the one its fields were taken from.
      if (isAnonymousVisitor(res)) forms.browser.check(req as Request, 'share');
      else sessions.checkCsrf(req as Request, sessions.sessionOf(res), 'share');
    },
    // Accounts by account (RATE_LIMIT_*), anonymous visitors by address (ANONYMOUS_RATE_LIMIT_*).
    limit: (req, res, next) => (anonymous && isAnonymousVisitor(res) ? anonymous.limit(req, res, next) : byAccount(req, res, next)),
  };
}

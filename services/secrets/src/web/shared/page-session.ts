import type { Request, RequestHandler, Response } from 'express';
import passport from 'passport';
import type { Logger, PageForms } from '@hush/common';
import { anonymousPrincipal, type Principal } from '../../auth/principal.js';
import { InsufficientScopeError } from '../../errors.js';
import { pageFrame, type Chrome } from './chrome.js';
import { readCookie, type WebCookies } from './cookies.js';
import { safeReturn } from './safe-return.js';
import { principalOfSession, WEB_REQUIRED_SCOPES, type WebSession, type WebSessions } from './sessions.js';
import { WebSessionStrategy } from './web-session.strategy.js';

/** Who is signed in to the web app in this browser, if anyone (never redirects, never fails the page). */
export type Viewer = (req: Request) => Promise<Chrome['user'] | undefined>;

/** Forms of a signed-in page hold a few short fields (a reference, a label). */
const SIGNED_IN_FORM_CHARACTERS = 256;

/**
 * The web session as the pages see it: authenticated from its cookie through passport (the
 * `web-session` strategy of the pages' own Authenticator, no passport session), kept in
 * `res.locals` (`webSession`, and `principal`, the very type the API's Bearer path builds), and
 * the CSRF tokens of a signed-in page's forms, bound to the session and the form's purpose.
 */
export interface PageSessions {
  /** Loads the session; without one, a page sends the person to sign in and then back here. */
  signedIn: RequestHandler;
  /** As `signedIn`, but a signed-out visitor goes on as the anonymous principal. */
  signedInOrAnonymous: RequestHandler;
  /** The session of this request's cookie, if live (no redirect). */
  current(req: Request): Promise<WebSession | undefined>;
  viewer: Viewer;
  /** The session `signedIn` loaded. */
  sessionOf(res: Response): WebSession;
  /** The caller `signedIn` or `signedInOrAnonymous` set. */
  principalOf(res: Response): Principal;
  /** The page's frame: the signed-in user's navigation, or none for an anonymous visitor. */
  chrome(res: Response, current?: Chrome['current']): Chrome;
  /** The token of a form of `session` for `purpose` ('share', 'burn', 'sign-out'...). */
  csrfToken(session: WebSession, purpose: string): string;
  /** Throws CsrfRejectedError unless the form carries `session`'s token for `purpose`. */
  checkCsrf(req: Request, session: WebSession, purpose: string): void;
  /** The chain before a signed-in form's handler: origin, body (at most `characters`), session, the session's token for `purpose`. */
  post(purpose: string, characters?: number): RequestHandler[];
}

export function pageSessions(deps: { sessions: WebSessions; cookies: WebCookies; forms: PageForms; logger: Logger }): PageSessions {
  const { sessions, cookies, forms, logger } = deps;
  const binding = (s: WebSession, purpose: string) => `${s.idHash.toString('hex')}\n${purpose}`;
  const csrfToken = (s: WebSession, purpose: string) => forms.token(binding(s, purpose));
  const checkCsrf = (req: Request, s: WebSession, purpose: string) => forms.check(req, binding(s, purpose));
  const current = (req: Request) => sessions.load(readCookie(req, cookies.session));
  const sessionOf = (res: Response) => res.locals['webSession'] as WebSession;

  // The pages' own passport (the API authenticates with its own): one strategy, no passport session.
  const authenticator = new passport.Authenticator();
  authenticator.use(new WebSessionStrategy(current));

  const withSession = (anonymousAllowed: boolean): RequestHandler => {
    const gate: RequestHandler = (req, res, next) => {
      const done = (err: unknown, user?: Express.User | false | null) => {
        if (err) return next(err);
        const session = user ? (user as WebSession) : undefined;
        if (!session && anonymousAllowed) {
          res.locals['principal'] = anonymousPrincipal();
          return next();
        }
        if (!session) {
          const back = req.method === 'GET' ? req.originalUrl : req.baseUrl + req.path;
          return res.redirect(303, `/auth/sign-in?return=${encodeURIComponent(safeReturn(back))}`);
        }
        const missing = WEB_REQUIRED_SCOPES.find((scope) => !session.scopes.has(scope));
        if (missing) return next(new InsufficientScopeError(missing));
        res.locals['webSession'] = session;
        res.locals['principal'] = principalOfSession(session);
        next();
      };
      const authenticate = authenticator.authenticate('web-session', { session: false }, done) as RequestHandler;
      void authenticate(req, res, next);
    };
    return gate;
  };
  const signedIn = withSession(false);
  const signedInOrAnonymous = withSession(true);
  const checkPurpose = (purpose: string): RequestHandler => {
    const check: RequestHandler = (req, res, next) => {
      checkCsrf(req, sessionOf(res), purpose);
      next();
    };
    return check;
  };

  const viewer: Viewer = async (req) => {
    try {
      const session = await current(req);
      return session && { name: session.custid, signOutCsrf: csrfToken(session, 'sign-out'), ...(session.email !== undefined ? { email: session.email } : {}) };
    } catch (err) {
      logger.warn({ err }, 'web session could not be loaded for the receipt page');
      return undefined;
    }
  };

  return {
    signedIn,
    signedInOrAnonymous,
    current,
    viewer,
    sessionOf,
    principalOf: (res) => res.locals['principal'] as Principal,
    chrome: (res, page) => {
      const s = res.locals['webSession'] as WebSession | undefined;
      return pageFrame(res, { user: s && { name: s.custid, signOutCsrf: csrfToken(s, 'sign-out') }, current: page });
    },
    csrfToken,
    checkCsrf,
    post: (purpose, characters = SIGNED_IN_FORM_CHARACTERS) => [...forms.read(characters), signedIn, checkPurpose(purpose)],
  };
}

/** A web app that is off (no WEB_CLIENT_SECRET): nobody is ever signed in. */
export const nobodySignedIn: Viewer = () => Promise.resolve(undefined);

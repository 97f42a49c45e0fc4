import express from 'express';
import { WEB_CALLBACK_PATH, WEB_SIGNED_OUT_PATH } from '@hush/contracts';
import { requestLogger, type KeyRing } from '@hush/common';
import { KEY_LABELS } from '../../key-labels.js';
import {
  pageFrame,
  readCookie,
  safeReturn,
  SignInFailedError,
  wordsOf,
  type IdentityClient,
  type PageContext,
  type PageSessions,
  type PendingSignIn,
  type WebCookies,
  type WebSessions,
} from '../shared/index.js';
import { signedOutPage, signInProblemPage } from './sign-in.views.js';

const SIGN_IN_SECONDS = 600;
/** The sign-out form holds nothing but its token. */
const SIGN_OUT_FORM_CHARACTERS = 0;

export interface SignInDeps {
  sessions: WebSessions;
  identity: IdentityClient;
  cookies: WebCookies;
  masterKeys: KeyRing;
}

/**
 * Sign-in through identity (OIDC authorization code with PKCE): the sign-in in progress is kept
 * sealed in a short-lived cookie until the callback, which starts a new session (a new id at
 * every sign-in). Sign-out ends the session here, then at identity (RP-initiated logout).
 */
export function signInRoutes(ctx: Pick<PageContext, 'baseUrl' | 'forms' | 'logger'>, deps: SignInDeps, pageSessions: PageSessions): express.Router {
  const { baseUrl, logger } = ctx;
  const { sessions, identity, cookies } = deps;
  const signInKeys = deps.masterKeys.derive(KEY_LABELS.webSignIn);
  const router = express.Router();

  router.get('/auth/sign-in', async (req, res) => {
    const returnTo = safeReturn(req.query['return']);
    if (await pageSessions.current(req)) {
      res.redirect(303, returnTo);
      return;
    }
    const { url, pending } = await identity.start(returnTo, wordsOf(res).locale);
    const sealed = signInKeys.seal(JSON.stringify({ ...pending, until: Date.now() + SIGN_IN_SECONDS * 1000 }), 'web-sign-in').toString('base64url');
    res.appendHeader('Set-Cookie', cookies.signInCookie(sealed, SIGN_IN_SECONDS));
    res.redirect(303, url.toString());
  });

  router.get(WEB_CALLBACK_PATH, async (req, res) => {
    // One use: the pending sign-in is forgotten whatever happens next.
    res.appendHeader('Set-Cookie', cookies.signInCookie('', 0));
    const pending = openPending(readCookie(req, cookies.signIn));
    if (!pending) {
      res.status(400).send(signInProblemPage(pageFrame(res), wordsOf(res).text('signIn.expired')));
      return;
    }
    const search = new URL(req.originalUrl, baseUrl).search;
    let signedInAs;
    try {
      signedInAs = await identity.finish(new URL(`${baseUrl}${WEB_CALLBACK_PATH}${search}`), pending);
    } catch (err) {
      if (!(err instanceof SignInFailedError)) throw err;
      requestLogger(logger, res).info({ event: 'web_sign_in_failed', reason: err.message }, 'web sign-in refused');
      const cancelled = err.message === 'access_denied';
      res.status(400).send(signInProblemPage(pageFrame(res), wordsOf(res).text(cancelled ? 'signIn.cancelled' : 'signIn.unverified')));
      return;
    }
    // Rotation: a new session id at every sign-in; an earlier session of this browser ends.
    await sessions.end(readCookie(req, cookies.session));
    const id = await sessions.create(signedInAs);
    res.appendHeader('Set-Cookie', cookies.sessionCookie(id));
    res.redirect(303, pending.returnTo);
  });

  router.post('/auth/sign-out', ...ctx.forms.read(SIGN_OUT_FORM_CHARACTERS), async (req, res) => {
    const cookie = readCookie(req, cookies.session);
    const session = await sessions.load(cookie);
    if (session) pageSessions.checkCsrf(req, session, 'sign-out');
    const idToken = session ? await sessions.end(cookie) : undefined;
    res.appendHeader('Set-Cookie', cookies.sessionCookie('', 0));
    const logout = session ? await identity.endSessionUrl(idToken) : undefined;
    res.redirect(303, logout ? logout.toString() : WEB_SIGNED_OUT_PATH);
  });

  router.get(WEB_SIGNED_OUT_PATH, (_req, res) => {
    res.send(signedOutPage(pageFrame(res)));
  });

  function openPending(cookie: string | undefined): PendingSignIn | undefined {
    if (!cookie) return undefined;
    try {
      const p = JSON.parse(signInKeys.open(Buffer.from(cookie, 'base64url'), 'web-sign-in').toString('utf8')) as PendingSignIn & { until: number };
      if (!(p.until > Date.now()) || !p.state || !p.nonce || !p.verifier) return undefined;
      return { state: p.state, nonce: p.nonce, verifier: p.verifier, returnTo: safeReturn(p.returnTo) };
    } catch {
      return undefined;
    }
  }

  return router;
}

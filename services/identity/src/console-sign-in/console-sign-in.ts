import express, { type Request, type RequestHandler, type Response } from 'express';
import type * as Oidc from 'openid-client';
import { fixedError, nonceOf, pageForms, pageSecurity, randomToken, requestLogger, securePage, type KeyRing, type Logger } from '@hush/common';
import type { ConsoleClient } from './console-clients.js';
import { consoleSessionSchema, pendingSignInSchema, safeReturnPath, sealedCookie, type ConsoleSession } from './console-session.js';
import { ROUTES } from '../oidc/routes.js';
import { consolePage, consolePageErrors, wordsFor, type ConsolePageOptions } from '../pages/index.js';
import { loggedOutPage } from '../login/index.js';

/** The `state` of the consoles' sign-out, which identity hands back to the post-logout URI. */
const SIGNED_OUT_STATE = 'signed-out';

export interface ConsoleSignInOptions {
  console: ConsoleClient;
  /** The realm's issuer (`${AUTH_URL}/auth/realms/public`) and AUTH_URL itself. */
  issuer: string;
  authUrl: string;
  /** Where the back-channel calls (token, userinfo) go, same paths as under AUTH_URL (config `internalUrl`). */
  internalUrl: string;
  /** The realm's ID token algorithm (DEFAULT_SIGNING_ALG): the console clients have none of their own. */
  idTokenAlg: string;
  /** Derived from MASTER_KEY: KEY_LABELS.consoleSessions and KEY_LABELS.csrf. */
  sessionKey: Buffer | KeyRing;
  csrfKey: Buffer | KeyRing;
  logger: Logger;
}

/**
 * What a console builds on (the account console, the admin console). Mount `router` at the
 * console's mount before the console's own routes, then put `requireConsoleSession` in front of them:
 *
 *   const auth = consoleSignIn({ console: ACCOUNT_CONSOLE, ... });
 *   app.use(ACCOUNT_CONSOLE.mount, auth.router);
 *   router.get('/', auth.requireConsoleSession, (req, res) => { const s = auth.sessionOf(res); ... });
 *   router.post('/x', auth.requireConsoleSession, ...auth.form(200), handler);  // CSRF checked
 *   // forms carry <input type="hidden" name="csrf" value="${auth.csrfToken(res)}">
 */
export interface ConsoleSignIn {
  /** `GET /sign-in?return=`, `GET /callback` (the client's redirect URI), `POST /sign-out`, relative to the mount. */
  readonly router: express.Router;
  /**
   * A signed-in person goes on (their session in `sessionOf(res)`, the access token refreshed when
   * it is about to expire); a GET without a session is sent to sign in and brought back to the same
   * path; any other method is sent (303) to sign in and back to the console's home.
   */
  readonly requireConsoleSession: RequestHandler;
  sessionOf(res: Response): ConsoleSession;
  /** The CSRF token every form of this session carries (field `csrf`). */
  csrfToken(res: Response): string;
  /** A form POST's middlewares, after requireConsoleSession: same origin, body within `formBodyLimit(characters)`, the session's CSRF token. */
  form(characters: number): RequestHandler[];
  /** Forgets the console session in this browser (as after "sign out everywhere"). */
  clearSession(req: Request, res: Response): void;
  /** The sign-out form's action. */
  readonly signOutPath: string;
  /** Sends a page of this console in the one console layout, for the signed-in person (after requireConsoleSession). */
  sendPage(res: Response, page: ConsolePageContent, status?: number): void;
}

/** What a console page says; the layout adds the nonce, the session's CSRF token, who is signed in and the sign-out form. */
export type ConsolePageContent = Pick<ConsolePageOptions, 'console' | 'nav' | 'current' | 'title' | 'body' | 'm' | 'languages'>;

/** Refreshed this long before the access token expires, so a request never runs on a dying token. */
const REFRESH_MARGIN = 30;
/** The cookie outlives access tokens; the refresh token (and the person's identity session) bounds the console session. */
const SESSION_COOKIE_MAX_AGE = 10 * 3600;
const PENDING_MAX_AGE = 600;

class ConsoleSignInFailedError extends fixedError(400, 'console_sign_in_failed', 'Signing in to the console did not complete: open the console again to retry') {}

/** How long after `expires_in` from now, as epoch seconds. */
const expiry = (tokens: Oidc.TokenEndpointResponse) => Math.floor(Date.now() / 1000) + (tokens.expires_in ?? 300);

/**
 * openid-client (with oauth4webapi, ~0.8 MB of heap) is loaded by the first console sign-in,
 * refresh or sign-out, not at start: the token endpoint never needs it.
 */
let library: Promise<typeof Oidc> | undefined;
const openIdClient = () => (library ??= import('openid-client'));

export function consoleSignIn(options: ConsoleSignInOptions): ConsoleSignIn {
  const { console: target, issuer, authUrl, logger } = options;
  const { mount, clientId } = target;
  const cookieName = `hush_console_${clientId.replace(/[^a-z0-9]/gi, '_')}`;
  const sessions = sealedCookie(cookieName, mount, options.sessionKey, consoleSessionSchema);
  const pending = sealedCookie(`${cookieName}_pending`, `${mount}/callback`, options.sessionKey, pendingSignInSchema);
  const forms = pageForms({ csrfKey: options.csrfKey, origins: [new URL(authUrl).origin] });
  const redirectUri = `${authUrl}${mount}/callback`;
  const signOutPath = `${mount}/sign-out`;

  // Identity's own endpoints, known without a discovery round trip; the code exchange and the
  // refreshes go to the token endpoint, reached at INTERNAL_URL when it is set.
  const server: Oidc.ServerMetadata = {
    issuer,
    authorization_endpoint: `${issuer}${ROUTES.authorization}`,
    token_endpoint: `${issuer}${ROUTES.token}`,
    jwks_uri: `${issuer}${ROUTES.jwks}`,
    userinfo_endpoint: `${issuer}${ROUTES.userinfo}`,
    end_session_endpoint: `${issuer}${ROUTES.end_session}`,
  };
  // The client is made when the library is first needed (see openIdClient).
  const publicOrigin = new URL(authUrl).origin;
  const internal = new URL(options.internalUrl).origin;
  let made: Promise<{ oidc: typeof Oidc; client: Oidc.Configuration }> | undefined;
  const relyingParty = () =>
    (made ??= openIdClient().then((oidc) => {
      const client = new oidc.Configuration(server, clientId, { id_token_signed_response_alg: options.idTokenAlg }, oidc.None());
      if (issuer.startsWith('http:') || options.internalUrl.startsWith('http:')) oidc.allowInsecureRequests(client);
      if (internal !== publicOrigin) {
        const viaInternal: Oidc.CustomFetch = (url, init) => fetch(url.startsWith(publicOrigin) ? `${internal}${url.slice(publicOrigin.length)}` : url, init);
        client[oidc.customFetch] = viaInternal;
      }
      return { oidc, client };
    }));

  /** Starts the authorization code flow with PKCE: the state and verifier go sealed into a cookie of the callback. */
  const startSignIn = async (req: Request, res: Response, returnTo: string) => {
    const { oidc, client } = await relyingParty();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    pending.write(req, res, { state, verifier, returnTo: safeReturnPath(returnTo, mount) }, PENDING_MAX_AGE);
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: redirectUri,
      scope: target.scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(target.resource ? { resource: target.resource } : {}),
    });
    res.redirect(303, url.href);
  };

  const save = (req: Request, res: Response, session: ConsoleSession) => sessions.write(req, res, session, SESSION_COOKIE_MAX_AGE);

  // One refresh per refresh token at a time in this process: two requests of one page racing to
  // rotate the same token would make the second a replay, which revokes the grant.
  const refreshing = new Map<string, Promise<Oidc.TokenEndpointResponse>>();
  const refreshed = async (session: ConsoleSession): Promise<ConsoleSession | undefined> => {
    if (session.expiresAt - REFRESH_MARGIN > Date.now() / 1000) return session;
    const token = session.refreshToken;
    if (!token) return undefined;
    const { oidc, client } = await relyingParty();
    let call = refreshing.get(token);
    if (!call) {
      call = oidc.refreshTokenGrant(client, token, target.resource ? { resource: target.resource } : undefined);
      refreshing.set(token, call);
      void call.finally(() => refreshing.delete(token)).catch(() => undefined);
    }
    try {
      const tokens = await call;
      return { ...session, accessToken: tokens.access_token, expiresAt: expiry(tokens), refreshToken: tokens.refresh_token ?? token, idToken: tokens.id_token ?? session.idToken };
    } catch (err) {
      // The person signed out elsewhere, was disabled, or the grant was revoked: the console session ends.
      logger.info({ err: (err as Error).message, client: clientId }, 'console session refresh refused');
      return undefined;
    }
  };

  const requireConsoleSession: RequestHandler = async (req, res, next) => {
    const stored = sessions.read(req);
    const session = stored && (await refreshed(stored));
    if (session) {
      if (session !== stored) save(req, res, session);
      res.locals['consoleSession'] = session;
      next();
      return;
    }
    if (stored) sessions.clear(req, res);
    const get = req.method === 'GET' || req.method === 'HEAD';
    await startSignIn(req, res, get ? req.originalUrl : `${mount}/`);
  };

  const sessionOf = (res: Response): ConsoleSession => {
    const session = res.locals['consoleSession'] as ConsoleSession | undefined;
    if (!session) throw new Error('console page without requireConsoleSession');
    return session;
  };
  const binding = (session: ConsoleSession) => `console\n${clientId}\n${session.id}`;
  const csrfToken = (res: Response) => forms.token(binding(sessionOf(res)));
  const form = (characters: number): RequestHandler[] => [
    ...forms.read(characters),
    (req, res, next) => {
      forms.check(req, binding(sessionOf(res)));
      next();
    },
  ];

  // ID tokens of the code flow carry no profile claims (they are userinfo's): the name shown comes from there.
  const usernameOf = async (accessToken: string, claims: Oidc.IDToken): Promise<string> => {
    if (typeof claims['preferred_username'] === 'string') return claims['preferred_username'];
    try {
      const { oidc, client } = await relyingParty();
      const info = await oidc.fetchUserInfo(client, accessToken, claims.sub);
      return typeof info.preferred_username === 'string' ? info.preferred_username : claims.sub;
    } catch (err) {
      logger.warn({ err: (err as Error).message, client: clientId }, 'console sign-in: userinfo failed');
      return claims.sub;
    }
  };

  const router = express.Router();
  router.use(['/sign-in', '/callback', '/sign-out'], pageSecurity());

  router.get('/sign-in', async (req, res) => {
    await startSignIn(req, res, typeof req.query['return'] === 'string' ? req.query['return'] : `${mount}/`);
  });

  router.get('/callback', async (req, res) => {
    const started = pending.read(req);
    pending.clear(req, res);
    if (!started) throw new ConsoleSignInFailedError();
    // The URL as the authorization server redirected to it: AUTH_URL's origin, never the Host header.
    const here = new URL(req.originalUrl, authUrl);
    let tokens: Oidc.TokenEndpointResponse & Oidc.TokenEndpointResponseHelpers;
    const { oidc, client } = await relyingParty();
    try {
      tokens = await oidc.authorizationCodeGrant(client, here, { pkceCodeVerifier: started.verifier, expectedState: started.state, idTokenExpected: true });
    } catch (err) {
      requestLogger(logger, res).info({ err: (err as Error).message, client: clientId }, 'console sign-in refused');
      throw new ConsoleSignInFailedError();
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new ConsoleSignInFailedError();
    save(req, res, {
      id: randomToken(16),
      userId: claims.sub,
      username: await usernameOf(tokens.access_token, claims),
      accessToken: tokens.access_token,
      expiresAt: expiry(tokens),
      ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
      idToken: tokens.id_token,
      ...(typeof claims['sid'] === 'string' ? { sid: claims['sid'] } : {}),
    });
    res.redirect(303, safeReturnPath(started.returnTo, mount));
  });

  // RP-initiated logout with the ID token as hint: identity ends its session at once and comes back here.
  router.post('/sign-out', ...forms.read(0), async (req, res) => {
    const session = sessions.read(req);
    if (!session) {
      res.redirect(303, `${mount}/`);
      return;
    }
    forms.check(req, binding(session));
    sessions.clear(req, res);
    const { oidc, client } = await relyingParty();
    const url = oidc.buildEndSessionUrl(client, { id_token_hint: session.idToken, post_logout_redirect_uri: `${authUrl}${mount}/`, state: SIGNED_OUT_STATE });
    res.redirect(303, url.href);
  });

  // Back from the sign-out (identity returns the state to the post-logout URI): a page that says
  // it worked, with a link to sign in again, instead of the sign-in form. Only without a session.
  router.get('/', (req, res, next) => {
    if (req.query['state'] !== SIGNED_OUT_STATE || sessions.read(req)) return next();
    const nonce = securePage(req, res);
    res.type('html').send(loggedOutPage(nonce, wordsFor(req, res), `${mount}/`));
  });

  router.use(['/sign-in', '/callback', '/sign-out'], consolePageErrors(logger, 'errors.consoleSignIn'));

  return {
    router,
    requireConsoleSession,
    sessionOf,
    csrfToken,
    form,
    clearSession: (req, res) => sessions.clear(req, res),
    signOutPath,
    sendPage: (res, page, status = 200) => {
      const content = consolePage({ ...page, nonce: nonceOf(res), csrf: csrfToken(res), signOutPath, username: sessionOf(res).username });
      res.status(status).type('html').send(content);
    },
  };
}

import express, { type NextFunction, type Request, type Response } from 'express';
import {
  allowFormTarget,
  createCsrf,
  CsrfRejectedError,
  deriveKey,
  formField,
  formGuard,
  nonceOf,
  open,
  pageSecurity,
  reportUnavailable,
  sameOrigin,
  seal,
  sendErrorPage,
  toDomainError,
  type Logger,
} from '@hush/common';
import { listApiTokens, mintApiToken, revokeApiToken, type AccountsDeps } from '../accounts/accounts.js';
import { anonymousPrincipal, isAnonymous, type Principal } from '../auth/principal.js';
import { InsufficientScopeError, UnknownSecretError } from '../errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { showMetadata } from '../secrets/metadata.js';
import { presentMetadata } from '../secrets/presenter.js';
import { secretsInputs } from '../secrets/params.js';
import { generateSecret, planFor, shareSecret } from '../secrets/share.js';
import { cookieHeader, readCookie } from './cookies.js';
import { SignInFailedError, type IdentityClient, type PendingSignIn } from './identity-client.js';
import type { Viewer } from '../pages/pages.routes.js';
import { burnOwnSecret, mySecrets, ownSecretShortkey } from './my-secrets.js';
import { principalOfSession, WEB_REQUIRED_SCOPES, type WebSession, type WebSessions } from './sessions.js';
import { burnConfirmPage, generatedPage, mySecretsPage, sharePage, signedOutPage, signInProblemPage, tokensPage, type Chrome, type TtlOption } from './views.js';
import { KEY_LABELS } from '../key-labels.js';
import { apiPathOf } from '../http/api.routes.js';

export interface WebDeps {
  secrets: SecretsDeps;
  accounts: Pick<AccountsDeps, 'accounts' | 'tokens' | 'tokenCache' | 'defaultPlan'>;
  sessions: WebSessions;
  identity: IdentityClient;
  limiter: RateLimiter;
  logger: Logger;
  masterKey: Buffer;
  /** The issuer's URL (its origin is where sign-out's form answer redirects). */
  issuer: string;
}

export interface WebOptions {
  /**
   * ANONYMOUS_SHARES: the share page (GET and POST /) also serves a signed-out visitor, as the
   * anonymous principal (its plan, no recipient), limited per IP by `limiter`; the form's CSRF
   * token is then bound to a browser cookie instead of a session.
   */
  anonymous?: { limiter: RateLimiter } | undefined;
}

const FORM_LIMIT = '256kb';
const SIGN_IN_SECONDS = 600;
const PAGE_SIZE = 20;

const TTL_PRESETS: TtlOption[] = [
  { seconds: 300, label: '5 minutes' },
  { seconds: 1800, label: '30 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 4 * 3600, label: '4 hours' },
  { seconds: 86400, label: '1 day' },
  { seconds: 3 * 86400, label: '3 days' },
  { seconds: 7 * 86400, label: '7 days' },
  { seconds: 14 * 86400, label: '14 days' },
  { seconds: 30 * 86400, label: '30 days' },
];

/** The presets within the configured bounds, and the one selected by default (the configured default, or the nearest below it). */
export function ttlChoices(bounds: { min: number; max: number; fallback: number }): { options: TtlOption[]; selected: number } {
  const options = TTL_PRESETS.filter((p) => p.seconds >= bounds.min && p.seconds <= bounds.max);
  if (!options.some((p) => p.seconds === bounds.fallback)) {
    options.push({ seconds: bounds.fallback, label: `${Math.round(bounds.fallback / 60)} minutes` });
    options.sort((a, b) => a.seconds - b.seconds);
  }
  return { options, selected: bounds.fallback };
}

/** Only a path of this service (never `//host` or a scheme) may be a return address. */
export function safeReturn(value: unknown): string {
  if (typeof value !== 'string' || value.length > 300 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value) || value.startsWith('/auth/')) return '/';
  return value;
}

/**
 * The creator's web app: sign-in through identity, the share page, results and receipts, My
 * secrets and API tokens. Every page needs a session except the sign-in steps; every POST needs
 * the session's CSRF token and must not come from another site.
 */
export function webRoutes(deps: WebDeps, options: WebOptions = {}): { router: express.Router; viewer: Viewer } {
  const { secrets } = deps;
  const baseUrl = secrets.settings.baseUrl;
  const secure = baseUrl.startsWith('https:');
  const SESSION_COOKIE = secure ? '__Host-hush_session' : 'hush_session';
  const SIGN_IN_COOKIE = secure ? '__Secure-hush_signin' : 'hush_signin';
  const signInKey = deriveKey(deps.masterKey, KEY_LABELS.webSignIn);
  const csrf = createCsrf(deriveKey(deps.masterKey, KEY_LABELS.csrf));
  const inputs = secretsInputs(secrets.settings.ttl);
  const ttl = ttlChoices(secrets.settings.ttl);
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 100 });
  const fromHere = sameOrigin([new URL(baseUrl).origin]);

  const sessionCookie = (value: string, maxAge?: number) =>
    cookieHeader(SESSION_COOKIE, value, { path: '/', secure, sameSite: 'Lax', ...(maxAge !== undefined ? { maxAge } : {}) });
  const signInCookie = (value: string, maxAge: number) => cookieHeader(SIGN_IN_COOKIE, value, { path: '/auth', secure, sameSite: 'Lax', maxAge });

  const tokenFor = (s: WebSession, resource: string) => csrf.token(`${s.idHash.toString('hex')}\n${resource}`);
  const checkCsrf = (req: Request, s: WebSession, resource: string) => {
    if (!csrf.verify(`${s.idHash.toString('hex')}\n${resource}`, formField(req, 'csrf'))) throw new CsrfRejectedError();
  };
  const sessionOf = (res: Response) => res.locals['webSession'] as WebSession;
  /** The page's frame: the signed-in user's navigation, or none for an anonymous visitor. */
  const chrome = (res: Response, current?: Chrome['current']): Chrome => {
    const s = res.locals['webSession'] as WebSession | undefined;
    return { nonce: nonceOf(res), user: s && { name: s.custid, signOutCsrf: tokenFor(s, 'sign-out') }, current };
  };

  const pages = ['/', '/secrets', '/tokens', '/auth'];
  router.use(pages, pageSecurity(), (req, res, next) => {
    // The sign-out form is answered by a redirect to identity: Chromium applies form-action to it.
    allowFormTarget(req, res, deps.issuer);
    next();
  });

  /** Loads the session; without one, a page sends the person to sign in and then back here. */
  const signedIn = (req: Request, res: Response, next: NextFunction) => withSession(req, res, next, false);
  /** The share page's caller: the signed-in user, or with ANONYMOUS_SHARES the anonymous principal. */
  const sharer = (req: Request, res: Response, next: NextFunction) => withSession(req, res, next, anonymous !== undefined);
  const withSession = async (req: Request, res: Response, next: NextFunction, anonymousAllowed: boolean) => {
    const session = await deps.sessions.load(readCookie(req, SESSION_COOKIE));
    if (!session && anonymousAllowed) {
      res.locals['principal'] = anonymousPrincipal();
      next();
      return;
    }
    if (!session) {
      const back = req.method === 'GET' ? req.originalUrl : req.baseUrl + req.path;
      res.redirect(303, `/auth/sign-in?return=${encodeURIComponent(safeReturn(back))}`);
      return;
    }
    const missing = WEB_REQUIRED_SCOPES.find((scope) => !session.scopes.has(scope));
    if (missing) throw new InsufficientScopeError(missing);
    res.locals['webSession'] = session;
    res.locals['principal'] = principalOfSession(session);
    next();
  };
  /** The signed-in user for a page that needs no session (the receipt): never redirects, never fails the page. */
  const viewer: Viewer = async (req) => {
    try {
      const session = await deps.sessions.load(readCookie(req, SESSION_COOKIE));
      return session && { name: session.custid, signOutCsrf: tokenFor(session, 'sign-out') };
    } catch (err) {
      deps.logger.warn({ err }, 'web session could not be loaded for the receipt page');
      return undefined;
    }
  };
  const post = (resource: string) => [fromHere, form, signedIn, (req: Request, res: Response, next: NextFunction) => (checkCsrf(req, sessionOf(res), resource), next())];

  // ---- Anonymous sharing (ANONYMOUS_SHARES) ----

  const anonymous = options.anonymous && { guard: formGuard(csrf), limit: options.anonymous.limiter.byIp() };
  const isAnonymousVisitor = (res: Response) => isAnonymous(res.locals['principal'] as Principal);
  /** The share form's CSRF token: bound to the session, or for an anonymous visitor to a browser cookie. */
  const shareCsrf = (req: Request, res: Response) => (anonymous && isAnonymousVisitor(res) ? anonymous.guard.issue(req, res, 'share') : tokenFor(sessionOf(res), 'share'));
  const checkShareCsrf = (req: Request, res: Response, next: NextFunction) => {
    if (anonymous && isAnonymousVisitor(res)) anonymous.guard.check(req, 'share');
    else checkCsrf(req, sessionOf(res), 'share');
    next();
  };
  /** Accounts by account (RATE_LIMIT_*), anonymous visitors by address (ANONYMOUS_RATE_LIMIT_*). */
  const shareLimit = (req: Request, res: Response, next: NextFunction) => (anonymous && isAnonymousVisitor(res) ? anonymous.limit(req, res, next) : byAccount(req, res, next));
  const byAccount = deps.limiter.byAccount();

  // ---- Sign-in, callback, sign-out ----

  router.get('/auth/sign-in', async (req, res) => {
    const returnTo = safeReturn(req.query['return']);
    if (await deps.sessions.load(readCookie(req, SESSION_COOKIE))) {
      res.redirect(303, returnTo);
      return;
    }
    const { url, pending } = await deps.identity.start(returnTo);
    const sealed = seal(signInKey, JSON.stringify({ ...pending, until: Date.now() + SIGN_IN_SECONDS * 1000 }), 'web-sign-in').toString('base64url');
    res.appendHeader('Set-Cookie', signInCookie(sealed, SIGN_IN_SECONDS));
    res.redirect(303, url.toString());
  });

  router.get('/auth/callback', async (req, res) => {
    // One use: the pending sign-in is forgotten whatever happens next.
    res.appendHeader('Set-Cookie', signInCookie('', 0));
    const pending = openPending(readCookie(req, SIGN_IN_COOKIE));
    if (!pending) {
      res.status(400).send(signInProblemPage(nonceOf(res), 'This sign-in expired or was started in another browser window. Please sign in again.'));
      return;
    }
    const search = new URL(req.originalUrl, baseUrl).search;
    let signedInAs;
    try {
      signedInAs = await deps.identity.finish(new URL(`${baseUrl}/auth/callback${search}`), pending);
    } catch (err) {
      if (!(err instanceof SignInFailedError)) throw err;
      deps.logger.info({ event: 'web_sign_in_failed', reason: err.message }, 'web sign-in refused');
      const cancelled = err.message === 'access_denied';
      res
        .status(400)
        .send(signInProblemPage(nonceOf(res), cancelled ? 'Sign-in was cancelled.' : 'The answer from the identity service could not be verified. Please sign in again.'));
      return;
    }
    // Rotation: a new session id at every sign-in; an earlier session of this browser ends.
    await deps.sessions.end(readCookie(req, SESSION_COOKIE));
    const id = await deps.sessions.create(signedInAs);
    res.appendHeader('Set-Cookie', sessionCookie(id));
    res.redirect(303, pending.returnTo);
  });

  router.post('/auth/sign-out', fromHere, form, async (req, res) => {
    const cookie = readCookie(req, SESSION_COOKIE);
    const session = await deps.sessions.load(cookie);
    if (session) checkCsrf(req, session, 'sign-out');
    const idToken = session ? await deps.sessions.end(cookie) : undefined;
    res.appendHeader('Set-Cookie', sessionCookie('', 0));
    const logout = session ? await deps.identity.endSessionUrl(idToken) : undefined;
    res.redirect(303, logout ? logout.toString() : '/auth/signed-out');
  });

  router.get('/auth/signed-out', (_req, res) => {
    res.send(signedOutPage(nonceOf(res)));
  });

  function openPending(cookie: string | undefined): PendingSignIn | undefined {
    if (!cookie) return undefined;
    try {
      const p = JSON.parse(open(signInKey, Buffer.from(cookie, 'base64url'), 'web-sign-in').toString('utf8')) as PendingSignIn & { until: number };
      if (!(p.until > Date.now()) || !p.state || !p.nonce || !p.verifier) return undefined;
      return { state: p.state, nonce: p.nonce, verifier: p.verifier, returnTo: safeReturn(p.returnTo) };
    } catch {
      return undefined;
    }
  }

  // ---- Share ----

  const planOfCaller = async (principal: Principal) => {
    const plan = await planFor(secrets, principal);
    return { name: plan.name, maxLength: plan.maxSecretLength };
  };

  router.get('/', sharer, async (req, res) => {
    const principal = res.locals['principal'] as Principal;
    res.send(
      sharePage(chrome(res, 'share'), {
        csrf: shareCsrf(req, res),
        plan: await planOfCaller(principal),
        anonymous: isAnonymous(principal),
        ttlOptions: ttl.options,
        values: { ttl: ttl.selected },
      }),
    );
  });

  router.post('/', fromHere, form, sharer, checkShareCsrf, shareLimit, async (req, res) => {
    const principal = res.locals['principal'] as Principal;
    const fields = {
      ttl: formField(req, 'ttl'),
      passphrase: formField(req, 'passphrase'),
      recipient: formField(req, 'recipient'),
    };
    try {
      if (formField(req, 'action') === 'generate') {
        const created = await generateSecret(secrets, principal, inputs.generate.parse(fields));
        const metadata = presentMetadata(await showMetadata(secrets, created.metadataKey, false));
        res.send(generatedPage(chrome(res, 'share'), created.value ?? '', metadata, baseUrl, isAnonymous(principal)));
        return;
      }
      const created = await shareSecret(secrets, principal, inputs.share.parse({ ...fields, secret: formField(req, 'secret') }));
      // Post/Redirect/Get: the receipt page is the result page (it shows the link until it is viewed).
      res.redirect(303, `/private/${created.metadataKey}?created=1`);
    } catch (err) {
      const known = toDomainError(err);
      if (!known || known.status >= 500 || known.status === 429) throw err;
      const ttlValue = Number(fields.ttl);
      res.status(known.status).send(
        sharePage(chrome(res, 'share'), {
          csrf: shareCsrf(req, res),
          plan: await planOfCaller(principal),
          anonymous: isAnonymous(principal),
          ttlOptions: ttl.options,
          values: { secret: formField(req, 'secret'), ttl: ttl.options.some((o) => o.seconds === ttlValue) ? ttlValue : ttl.selected, recipient: fields.recipient },
          error: `${known.message}.`.replace(/\.\.$/, '.'),
        }),
      );
    }
  });

  // ---- My secrets ----

  router.get('/secrets', signedIn, async (req, res) => {
    const raw = req.query['before'];
    const before = typeof raw === 'string' && /^[A-Za-z0-9_-]{1,40}$/.test(raw) ? raw : undefined;
    const { items, next } = await mySecrets(secrets, res.locals['principal'] as Principal, PAGE_SIZE, before);
    const notice = req.query['burned'] === '1' ? 'The secret was burned: nobody can view it now.' : undefined;
    res.send(mySecretsPage(chrome(res, 'secrets'), { items, next, notice, burnCsrf: tokenFor(sessionOf(res), 'burn') }));
  });

  router.post('/secrets/burn', ...post('burn'), async (req, res) => {
    const ref = formField(req, 'ref') ?? '';
    const principal = res.locals['principal'] as Principal;
    if (formField(req, 'confirm') !== 'yes') {
      const shortkey = await ownSecretShortkey(secrets, principal, ref);
      res.send(burnConfirmPage(chrome(res, 'secrets'), { ref, shortkey, csrf: tokenFor(sessionOf(res), 'burn') }));
      return;
    }
    try {
      await burnOwnSecret(secrets, principal, ref);
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
    }
    res.redirect(303, '/secrets?burned=1');
  });

  // ---- API tokens ----

  const tokenList = async (custid: string) =>
    (await listApiTokens(deps.accounts, custid))
      .filter((t) => t.revokedAt === null)
      .map((t) => ({ id: t.id, label: t.label, created: unixOf(t.createdAt), lastUsed: t.lastUsedAt ? unixOf(t.lastUsedAt) : 0 }));

  const renderTokens = async (res: Response, extra: { minted?: { token: string; curl: string }; notice?: string | undefined; error?: string } = {}) => {
    const s = sessionOf(res);
    res.send(tokensPage(chrome(res, 'tokens'), { tokens: await tokenList(s.custid), createCsrf: tokenFor(s, 'tokens'), revokeCsrf: tokenFor(s, 'revoke'), ...extra }));
  };

  router.get('/tokens', signedIn, async (req, res) => {
    await renderTokens(res, { notice: req.query['revoked'] === '1' ? 'The token was revoked: it no longer works.' : undefined });
  });

  router.post('/tokens', ...post('tokens'), deps.limiter.byAccount(), async (req, res) => {
    const custid = sessionOf(res).custid;
    const label = (formField(req, 'label') ?? '').trim();
    if (!label) {
      res.status(400);
      await renderTokens(res, { error: 'Give the token a label, so you can tell your tokens apart.' });
      return;
    }
    const minted = await mintApiToken(deps.accounts, custid, label);
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const curl = `curl -u ${quote(`${custid}:${minted.api_token}`)} ${baseUrl}${apiPathOf('share')} -d secret='hello from curl'`;
    await renderTokens(res, { minted: { token: minted.api_token, curl } });
  });

  router.post('/tokens/revoke', ...post('revoke'), async (req, res) => {
    await revokeApiToken(deps.accounts, formField(req, 'id') ?? '', sessionOf(res).custid);
    res.redirect(303, '/tokens?revoked=1');
  });

  router.use(pages, (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = toDomainError(err, FORM_LIMIT);
    if (!known) deps.logger.error({ err }, 'web page failed');
    else reportUnavailable(deps.logger, known);
    sendErrorPage(req, res, known ?? { status: 500, message: 'Please try again later.' });
  });
  return { router, viewer };
}

const unixOf = (d: Date) => Math.floor(d.getTime() / 1000);

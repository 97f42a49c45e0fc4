import express, { type Request, type Response } from 'express';
import { InvalidInputError, pageSecurity, readForm, type Html, type Logger } from '@hush/common';
import { z } from 'zod';
import { ACCOUNT_CONSOLE, ADMIN_CONSOLE, type ConsoleSignIn } from '../console-sign-in/index.js';
import { consolePageErrors, refusedForLimit, type PageKey } from '../pages/index.js';
import type { EventRecorder } from '../events/index.js';
import { endAccountSessions } from '../sessions/index.js';
import {
  applicationsOf,
  changePassword,
  endSession,
  ProfileInvalidError,
  revokeApplication,
  sessionsOf,
  updateProfile,
  WrongPasswordError,
  type AccountDeps,
  type CurrentSession,
} from './account.js';
import { accountApi, type AccountApiDeps } from './account-api.js';
import { ACCOUNT_CONSOLE_FAULT, accountNav, ACCOUNT_PAGES } from './account-nav.js';
import { accountWords, wordsOf } from './account-words.js';
import { applicationsBody, passwordBody, profileBody, sessionsBody } from './account.views.js';
import { MAX_PASSWORD_BYTES } from '../users/index.js';
import type { SignInLimits } from '../login/index.js';

export interface AccountConsoleDeps {
  signIn: ConsoleSignIn;
  account: AccountDeps;
  /** A client's display name (its id when it has none or is gone). */
  clientName: (clientId: string) => Promise<string>;
  api: Omit<AccountApiDeps, 'account' | 'events'>;
  /** The sign-in failure limits: a wrong current password counts as a failed sign-in. */
  limiter: Pick<SignInLimits, 'limits' | 'login'>;
  events?: Pick<EventRecorder, 'user'>;
  logger: Logger;
}

const CONSOLES = [ACCOUNT_CONSOLE.clientId, ADMIN_CONSOLE.clientId];
const text = z.string().max(1000).optional();
const profileForm = z.object({ firstName: text, lastName: text, email: text, locale: z.string().max(35).optional() });
const passwordForm = z.object({ current: z.string().max(1000).default(''), password: z.string().max(1000).default(''), confirm: z.string().max(1000).default('') });
const clientForm = z.object({ client: z.string().max(255).default('') });
const sessionForm = z.object({ session: z.string().max(255).default('') });

/**
 * The account console at /auth/realms/public/account (mount the router there): profile, password,
 * applications, sessions, and the link to the security pages (second factor and passkeys, their
 * own router at /security). The same path answers Keycloak's account REST API (account-api.ts).
 * Every page needs a console session; every form carries its CSRF token; an answer to a form is
 * a redirect to its page (post/redirect/get), except when the form comes back with its errors.
 */
export function accountConsole(deps: AccountConsoleDeps): express.Router {
  const { signIn, account } = deps;
  const router = express.Router();
  router.use(accountApi({ ...deps.api, account, ...(deps.events ? { events: deps.events } : {}) }));
  router.use(signIn.router);
  router.use(pageSecurity());
  const who = (res: Response) => signIn.sessionOf(res).userId;
  // Every page: a console session, then the person's language (their `locale` attribute among the hints).
  const requireSession = [signIn.requireConsoleSession, accountWords(who, account.users)];
  const page = (res: Response, current: string, title: PageKey, body: Html, status = 200) => {
    const m = wordsOf(res);
    signIn.sendPage(res, { m, console: m.text('account.console'), nav: accountNav(m), current, title: m.text(title), body }, status);
  };
  const here = (res: Response): CurrentSession => ({ clientId: ACCOUNT_CONSOLE.clientId, sid: signIn.sessionOf(res).sid });
  /** The notice of `?done=` (post/redirect/get), in the page's language. */
  const flash = (req: Request, res: Response, messages: Record<string, PageKey>) => {
    const key = typeof req.query['done'] === 'string' ? req.query['done'] : '';
    const message = Object.hasOwn(messages, key) ? messages[key] : undefined;
    return message && wordsOf(res).text(message);
  };
  const user = async (res: Response) => {
    const found = await account.users.findById(who(res));
    if (!found) throw new InvalidInputError(wordsOf(res).text('account.gone'));
    return found;
  };
  const record = (
    req: Request,
    res: Response,
    type: 'UPDATE_PROFILE' | 'UPDATE_EMAIL' | 'UPDATE_PASSWORD' | 'UPDATE_PASSWORD_ERROR' | 'REVOKE_GRANT' | 'LOGOUT',
    extra: { error?: string; details?: Record<string, string> } = {},
  ) => deps.events?.user({ type, userId: who(res), clientId: ACCOUNT_CONSOLE.clientId, ipAddress: req.ip, ...extra });

  router.get('/', ...requireSession, async (req, res) => {
    const ok = flash(req, res, { profile: 'account.profile.saved', email: 'account.profile.savedEmail' });
    page(res, ACCOUNT_PAGES.profile, 'account.profile.title', profileBody({ m: wordsOf(res), user: await user(res), csrf: signIn.csrfToken(res), ok }));
  });

  router.post('/', ...requireSession, ...signIn.form(3 * 1000), async (req, res) => {
    const typed = readForm(req, profileForm);
    try {
      const { emailChanged } = await updateProfile(account, who(res), typed);
      record(req, res, 'UPDATE_PROFILE');
      if (emailChanged) record(req, res, 'UPDATE_EMAIL');
      res.redirect(303, `${ACCOUNT_PAGES.profile}?done=${emailChanged ? 'email' : 'profile'}`);
    } catch (err) {
      if (!(err instanceof ProfileInvalidError)) throw err;
      const shown = { firstName: typed.firstName ?? '', lastName: typed.lastName ?? '', email: typed.email ?? '', locale: typed.locale ?? '' };
      page(
        res,
        ACCOUNT_PAGES.profile,
        'account.profile.title',
        profileBody({ m: wordsOf(res), user: await user(res), csrf: signIn.csrfToken(res), typed: shown, errors: err.fields }),
        400,
      );
    }
  });

  router.get('/password', ...requireSession, (req, res) => {
    const ok = flash(req, res, { password: 'account.password.changed' });
    page(res, ACCOUNT_PAGES.password, 'account.password.title', passwordBody({ m: wordsOf(res), csrf: signIn.csrfToken(res), maxBytes: MAX_PASSWORD_BYTES, ok }));
  });

  router.post('/password', ...requireSession, ...signIn.form(3 * 1000), async (req, res) => {
    const form = readForm(req, passwordForm);
    const m = wordsOf(res);
    const refuse = (error: string, status = 400) =>
      page(res, ACCOUNT_PAGES.password, 'account.password.title', passwordBody({ m, csrf: signIn.csrfToken(res), maxBytes: MAX_PASSWORD_BYTES, error }), status);
    if (form.password !== form.confirm) return refuse(m.text('account.password.differ'));
    if (form.password.length < 8 || Buffer.byteLength(form.password) > MAX_PASSWORD_BYTES) return refuse(m.text('account.password.rules', { max: MAX_PASSWORD_BYTES }));
    // The current password is guessed no faster here than at the login page: the same counters,
    // counted before it is checked and given back unless it was wrong (RateLimits#attempt).
    const { perUser, perIp } = deps.limiter.login;
    const checks = [
      { limit: perUser, key: `${signIn.sessionOf(res).username.toLowerCase()}:${req.ip}` },
      { limit: perIp, key: req.ip ?? 'unknown' },
    ];
    const attempt = await deps.limiter.limits.attempt(
      checks,
      async () => {
        try {
          await changePassword(account, who(res), form.current, form.password, here(res));
          return undefined;
        } catch (err) {
          if (err instanceof InvalidInputError) return err;
          throw err;
        }
      },
      (refused) => refused instanceof WrongPasswordError,
    );
    if (attempt.blocked) return refuse(refusedForLimit(res, attempt.retryAfter, m, 'wrongPasswords'), 429);
    if (attempt.result) {
      const wrong = attempt.result instanceof WrongPasswordError;
      record(req, res, 'UPDATE_PASSWORD_ERROR', { error: wrong ? 'invalid_user_credentials' : 'password_rejected' });
      // Past the checks above, the only other refusal is a new password equal to the current one.
      return refuse(m.text(wrong ? 'account.password.wrong' : 'account.password.same'));
    }
    record(req, res, 'UPDATE_PASSWORD');
    res.redirect(303, `${ACCOUNT_PAGES.password}?done=password`);
  });

  router.get('/applications', ...requireSession, async (req, res) => {
    const ok = flash(req, res, { revoked: 'account.applications.revoked' });
    const apps = await Promise.all((await applicationsOf(account, who(res), CONSOLES)).map(async (app) => ({ ...app, name: await deps.clientName(app.clientId) })));
    page(res, ACCOUNT_PAGES.applications, 'account.applications.title', applicationsBody({ m: wordsOf(res), csrf: signIn.csrfToken(res), apps, ok }));
  });

  router.post('/applications/revoke', ...requireSession, ...signIn.form(255), async (req, res) => {
    const { client } = readForm(req, clientForm);
    if (!CONSOLES.includes(client) && (await revokeApplication(account, who(res), client))) record(req, res, 'REVOKE_GRANT', { details: { revoked_client: client } });
    res.redirect(303, `${ACCOUNT_PAGES.applications}?done=revoked`);
  });

  router.get('/sessions', ...requireSession, async (req, res) => {
    const ok = flash(req, res, { ended: 'account.sessions.ended' });
    const sessions = await sessionsOf(account, who(res), here(res));
    const names = new Map<string, string>();
    for (const id of new Set(sessions.flatMap((s) => s.clients))) names.set(id, await deps.clientName(id));
    page(
      res,
      ACCOUNT_PAGES.sessions,
      'account.sessions.title',
      sessionsBody({ m: wordsOf(res), csrf: signIn.csrfToken(res), sessions, clientName: (id) => names.get(id) ?? id, ok }),
    );
  });

  router.post('/sessions/end', ...requireSession, ...signIn.form(255), async (req, res) => {
    const { session } = readForm(req, sessionForm);
    const current = (await sessionsOf(account, who(res), here(res))).find((s) => s.current)?.id;
    if (await endSession(account, who(res), session)) record(req, res, 'LOGOUT', { details: { reason: 'account_console' } });
    if (session === current) {
      // This browser's own session: the console's goes with it.
      signIn.clearSession(req, res);
      res.redirect(303, ACCOUNT_PAGES.profile);
      return;
    }
    res.redirect(303, `${ACCOUNT_PAGES.sessions}?done=ended`);
  });

  router.post('/sessions/end-all', ...requireSession, ...signIn.form(0), async (req, res) => {
    await endAccountSessions(account, who(res));
    record(req, res, 'LOGOUT', { details: { reason: 'account_console_all' } });
    signIn.clearSession(req, res);
    res.redirect(303, ACCOUNT_PAGES.profile);
  });

  router.use(consolePageErrors(deps.logger, ACCOUNT_CONSOLE_FAULT));
  return router;
}

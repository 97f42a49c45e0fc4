import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { nonceOf, pageForms, pageSecurity, readForm, requestLogger, type KeyRing, type LimitCheck, type Logger, type RateLimit, type RateLimits } from '@hush/common';
import {
  ACTION_TOKEN_PATH,
  ActionLinkUnusableError,
  completeActionLink,
  inspectActionLink,
  issueActionLink,
  requestPasswordReset,
  type AccountActionsDeps,
} from './account-links.js';
import { REALM_PATH } from '../config.js';
import { AlreadyExistsError, InvalidInputError } from '../errors.js';
import type { EventRecorder } from '../events/index.js';
import type { SessionsDeps } from '../sessions/index.js';
import { actionLinkPage, actionLinkUnusablePage, actionsDonePage, checkEmailPage, forgotPasswordPage, registeredPage, registerPage } from './account-links.views.js';
import { keptUiLocales, LOGIN_FORM_CHARACTERS, mailHintsOf, signInPageErrors, wordsFor } from '../pages/index.js';
import { createUser, MAX_PASSWORD_BYTES, type UsersDeps } from '../users/index.js';

export const RESET_PATH = '/login-actions/reset-credentials';
export const REGISTRATION_PATH = '/login-actions/registration';
export const RESEND_VERIFICATION_PATH = '/login-actions/verify-email/resend';
/** The account console (its security page is where CONFIGURE_TOTP continues). */
const ACCOUNT_PATH = `${REALM_PATH}/account`;

export interface AccountActionRouteDeps {
  actions: AccountActionsDeps & SessionsDeps;
  /** For self-registration. */
  users: Pick<UsersDeps, 'users' | 'organizations' | 'passwords'>;
  limits: {
    limits: RateLimits;
    resetPerAddress: RateLimit;
    resetPerIp: RateLimit;
    registerPerIp: RateLimit;
  };
  resetLifespanSeconds: number;
  /** How long a self-registered account's confirmation link works (ACTIONS_LINK_LIFESPAN). */
  verifyLifespanSeconds: number;
  registration: boolean;
  csrfKey: Buffer | KeyRing;
  origin?: string;
  logger: Logger;
  events?: Pick<EventRecorder, 'user'>;
}

const interactionUid = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/)
  .optional()
  .catch(undefined);
const forgotForm = z.object({ login: z.string().trim().max(254).default(''), interaction: interactionUid });
const actionForm = z.object({ key: z.string().max(100).default(''), password: z.string().default(''), confirm: z.string().default('') });
const registerForm = z.object({
  username: z.string().trim().max(64).default(''),
  email: z.string().trim().max(254).default(''),
  password: z.string().default(''),
  confirm: z.string().default(''),
  interaction: interactionUid,
});

/**
 * The pages of the e-mailed account links, at the realm's `/login-actions/...` (before the
 * interaction routes, whose `/login-actions/:uid` would take these names):
 * - "Forgot password?" (`reset-credentials`): one answer, sent before the account is even looked
 *   up, so neither the page nor its timing says whether it exists; the lookup and the e-mail
 *   happen after the response. Limited per typed username/address and per IP, every request counted.
 * - the link's page (`action-token?key=`): GET shows the form and uses nothing (mail scanners
 *   follow links); the POST performs the actions and uses the link up.
 * - self-registration (`registration`, REGISTRATION=true only) and a new confirmation link.
 * CSRF: these pages have no session; each form carries a token bound to a random client id in
 * an HttpOnly SameSite=Strict cookie (pageForms' browser guard), and cross-site POSTs are refused.
 */
export function accountActionRoutes(deps: AccountActionRouteDeps): express.Router {
  const router = express.Router();
  const forms = pageForms({ csrfKey: deps.csrfKey, origins: deps.origin ? [deps.origin] : [] });
  const paths = [RESET_PATH, ACTION_TOKEN_PATH, REGISTRATION_PATH, RESEND_VERIFICATION_PATH];
  router.use(paths, pageSecurity());
  const loginHref = (uid: string | undefined) => (uid ? `${REALM_PATH}/login-actions/${uid}` : undefined);
  const log = (res: Response) => requestLogger(deps.logger, res);
  /** Every page's words (its language: the request's hints, pages/page-locale.ts) and nonce. */
  const frame = (req: Request, res: Response) => ({ m: wordsFor(req, res), nonce: nonceOf(res) });
  /** A form's action keeps the `ui_locales` its page came with, so the answer and the e-mail are in that language. */
  const actionOf = (req: Request, path: string) => {
    const kept = keptUiLocales(req.query['ui_locales']);
    return `${REALM_PATH}${path}${kept ? `?${kept}` : ''}`;
  };

  /** Counts this request on each key in one step (RateLimits#take), refusing it (429, Retry-After) if one is already at its limit. */
  const limited = async (res: Response, checks: LimitCheck[]): Promise<boolean> => {
    const wait = await deps.limits.limits.take(checks);
    if (wait > 0) res.set('Retry-After', String(wait));
    return wait > 0;
  };

  /** A request for an e-mailed link counts on the typed username or address and on the IP. */
  const linkRequestChecks = (login: string, ip: string | undefined): LimitCheck[] => [
    { limit: deps.limits.resetPerAddress, key: login.toLowerCase() },
    { limit: deps.limits.resetPerIp, key: ip ?? 'unknown' },
  ];

  /** Work done after the answer left: its failure is logged, never shown (the answer was already the same for all). */
  const afterAnswer = (res: Response, what: string, work: () => Promise<unknown>) => {
    setImmediate(() => {
      work().catch((err: unknown) => log(res).error({ err }, `${what} failed`));
    });
  };

  router.get(RESET_PATH, (req, res) => {
    const interaction = interactionUid.parse(req.query['interaction']);
    res.type('html').send(
      forgotPasswordPage({
        action: actionOf(req, RESET_PATH),
        csrf: forms.browser.issue(req, res, RESET_PATH),
        interaction,
        loginHref: loginHref(interaction),
        ...frame(req, res),
      }),
    );
  });

  router.post(RESET_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    forms.browser.check(req, RESET_PATH);
    const { login, interaction } = readForm(req, forgotForm);
    if (await limited(res, linkRequestChecks(login, req.ip))) {
      res.status(429).send(
        forgotPasswordPage({
          action: actionOf(req, RESET_PATH),
          csrf: forms.browser.issue(req, res, RESET_PATH),
          interaction,
          login,
          error: wordsFor(req, res).text('links.forgot.tooMany'),
          loginHref: loginHref(interaction),
          ...frame(req, res),
        }),
      );
      return;
    }
    res.type('html').send(checkEmailPage({ what: 'reset', lifespanSeconds: deps.resetLifespanSeconds, loginHref: loginHref(interaction), ...frame(req, res) }));
    const hints = mailHintsOf(req);
    afterAnswer(res, 'password reset request', async () => {
      const user = await requestPasswordReset(deps.actions, login, { lifespanSeconds: deps.resetLifespanSeconds, interactionUid: interaction, hints });
      if (user) deps.events?.user({ type: 'SEND_RESET_PASSWORD', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
      else deps.events?.user({ type: 'SEND_RESET_PASSWORD_ERROR', ipAddress: req.ip, error: 'user_not_found', details: { username: login.slice(0, 100) } });
    });
  });

  const forgotHref = `${REALM_PATH}${RESET_PATH}`;
  const unusable = (res: Response) =>
    res
      .status(400)
      .type('html')
      .send(actionLinkUnusablePage({ forgotHref, ...frame(res.req, res) }));

  router.get(ACTION_TOKEN_PATH, async (req, res) => {
    const key = typeof req.query['key'] === 'string' ? req.query['key'] : '';
    const found = await inspectActionLink(deps.actions, key);
    if (!found) return unusable(res);
    res.type('html').send(
      actionLinkPage({
        action: actionOf(req, ACTION_TOKEN_PATH),
        csrf: forms.browser.issue(req, res, ACTION_TOKEN_PATH),
        key,
        username: found.user.username,
        actions: found.token.actions,
        ...frame(req, res),
      }),
    );
  });

  router.post(ACTION_TOKEN_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    forms.browser.check(req, ACTION_TOKEN_PATH);
    const { key, password, confirm } = readForm(req, actionForm);
    const found = await inspectActionLink(deps.actions, key);
    if (!found) return unusable(res);
    const again = (error: string) =>
      res.status(400).send(
        actionLinkPage({
          action: actionOf(req, ACTION_TOKEN_PATH),
          csrf: forms.browser.issue(req, res, ACTION_TOKEN_PATH),
          key,
          username: found.user.username,
          actions: found.token.actions,
          error,
          ...frame(req, res),
        }),
      );
    const setsPassword = found.token.actions.includes('UPDATE_PASSWORD');
    const m = wordsFor(req, res);
    if (setsPassword && password !== confirm) return again(m.text('links.action.differ'));
    let done;
    try {
      done = await completeActionLink(deps.actions, key, { password: setsPassword ? password : undefined });
    } catch (err) {
      if (err instanceof ActionLinkUnusableError) return unusable(res);
      // The one input a link's actions check is the new password (users/users.ts checkPassword).
      if (err instanceof InvalidInputError) return again(m.text('links.action.refused', { max: MAX_PASSWORD_BYTES }));
      throw err;
    }
    const { token, user } = done;
    const event = { userId: user.id, clientId: token.clientId ?? undefined, ipAddress: req.ip, details: { username: user.username } };
    if (token.kind === 'reset-password') deps.events?.user({ type: 'RESET_PASSWORD', ...event });
    else if (token.kind === 'execute-actions') deps.events?.user({ type: 'EXECUTE_ACTION_TOKEN', ...event, details: { ...event.details, actions: token.actions.join(',') } });
    if (setsPassword && token.kind !== 'reset-password') deps.events?.user({ type: 'UPDATE_PASSWORD', ...event });
    if (token.actions.includes('VERIFY_EMAIL') || token.kind === 'verify-email') deps.events?.user({ type: 'VERIFY_EMAIL', ...event });
    log(res).info({ event: 'account_link_used', kind: token.kind }, 'account link used');
    // The second factor is set up in the account console, after signing in (there with the new password).
    if (token.actions.includes('CONFIGURE_TOTP')) return res.redirect(303, `${ACCOUNT_PATH}/security`);
    res.type('html').send(
      actionsDonePage({
        passwordChanged: setsPassword,
        verified: token.actions.includes('VERIFY_EMAIL'),
        continueHref: loginHref(token.interactionUid ?? undefined),
        appHref: token.redirectUri ?? undefined,
        accountHref: ACCOUNT_PATH,
        ...frame(req, res),
      }),
    );
  });

  router.get(REGISTRATION_PATH, (req, res, next) => {
    if (!deps.registration) return next();
    const interaction = interactionUid.parse(req.query['interaction']);
    res.type('html').send(
      registerPage({
        action: actionOf(req, REGISTRATION_PATH),
        csrf: forms.browser.issue(req, res, REGISTRATION_PATH),
        interaction,
        loginHref: loginHref(interaction),
        ...frame(req, res),
      }),
    );
  });

  router.post(REGISTRATION_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res, next) => {
    if (!deps.registration) return next();
    forms.browser.check(req, REGISTRATION_PATH);
    const form = readForm(req, registerForm);
    const again = (status: number, error: string) =>
      res.status(status).send(
        registerPage({
          action: actionOf(req, REGISTRATION_PATH),
          csrf: forms.browser.issue(req, res, REGISTRATION_PATH),
          interaction: form.interaction,
          username: form.username,
          email: form.email,
          error,
          loginHref: loginHref(form.interaction),
          ...frame(req, res),
        }),
      );
    const m = wordsFor(req, res);
    if (await limited(res, [{ limit: deps.limits.registerPerIp, key: req.ip ?? 'unknown' }])) return again(429, m.text('links.register.tooMany'));
    if (!form.email) return again(400, m.text('links.register.emailRequired'));
    if (form.password !== form.confirm) return again(400, m.text('links.register.differ'));
    if (await deps.users.users.emailTaken(form.email)) return again(409, m.text('links.register.emailTaken'));
    let user;
    try {
      ({ user } = await createUser(deps.users, { username: form.username, email: form.email, password: form.password, emailVerified: false, selfRegistered: true }));
    } catch (err) {
      if (err instanceof AlreadyExistsError) return again(409, m.text('links.register.usernameTaken'));
      if (err instanceof InvalidInputError) return again(400, m.text(registrationRefusal(err.message), { max: MAX_PASSWORD_BYTES }));
      throw err;
    }
    deps.events?.user({ type: 'REGISTER', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    await issueActionLink(deps.actions, { ...user, email: form.email }, 'verify-email', {
      actions: ['VERIFY_EMAIL'],
      lifespanSeconds: deps.verifyLifespanSeconds,
      interactionUid: form.interaction,
      hints: mailHintsOf(req),
    });
    deps.events?.user({ type: 'SEND_VERIFY_EMAIL', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    res.status(201).send(registeredPage({ loginHref: loginHref(form.interaction), ...frame(req, res) }));
  });

  router.post(RESEND_VERIFICATION_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    forms.browser.check(req, RESEND_VERIFICATION_PATH);
    const { login, interaction } = readForm(req, forgotForm);
    if (await limited(res, linkRequestChecks(login, req.ip))) {
      res.status(429).send(checkEmailPage({ what: 'verify', loginHref: loginHref(interaction), ...frame(req, res) }));
      return;
    }
    res.type('html').send(checkEmailPage({ what: 'verify', loginHref: loginHref(interaction), ...frame(req, res) }));
    const hints = mailHintsOf(req);
    afterAnswer(res, 'confirmation link request', async () => {
      const user = login ? await deps.actions.users.findByLogin(login) : undefined;
      if (!user?.email || !user.enabled || !user.selfRegistered || user.emailVerified) return;
      await issueActionLink(deps.actions, { ...user, email: user.email }, 'verify-email', {
        actions: ['VERIFY_EMAIL'],
        lifespanSeconds: deps.verifyLifespanSeconds,
        interactionUid: interaction,
        hints,
      });
      deps.events?.user({ type: 'SEND_VERIFY_EMAIL', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    });
  });

  router.use(paths, signInPageErrors(deps.logger));
  return router;
}

/** Which sentence refuses a registration that users/users.ts found invalid (its messages name the field first). */
function registrationRefusal(message: string): 'links.register.usernameInvalid' | 'links.register.emailInvalid' | 'links.register.passwordInvalid' | 'links.register.refused' {
  if (message.startsWith('username')) return 'links.register.usernameInvalid';
  if (message.startsWith('email')) return 'links.register.emailInvalid';
  if (message.startsWith('password')) return 'links.register.passwordInvalid';
  return 'links.register.refused';
}

import express, { type Response } from 'express';
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
import { LOGIN_FORM_CHARACTERS, signInPageErrors } from '../pages/index.js';
import { createUser, type UsersDeps } from '../users/index.js';

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
        action: `${REALM_PATH}${RESET_PATH}`,
        csrf: forms.browser.issue(req, res, RESET_PATH),
        interaction,
        loginHref: loginHref(interaction),
        nonce: nonceOf(res),
      }),
    );
  });

  router.post(RESET_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    forms.browser.check(req, RESET_PATH);
    const { login, interaction } = readForm(req, forgotForm);
    if (await limited(res, linkRequestChecks(login, req.ip))) {
      res.status(429).send(
        forgotPasswordPage({
          action: `${REALM_PATH}${RESET_PATH}`,
          csrf: forms.browser.issue(req, res, RESET_PATH),
          interaction,
          login,
          error: 'Too many requests for a new password. Try again later.',
          loginHref: loginHref(interaction),
          nonce: nonceOf(res),
        }),
      );
      return;
    }
    res.type('html').send(checkEmailPage({ what: 'reset', loginHref: loginHref(interaction), nonce: nonceOf(res) }));
    afterAnswer(res, 'password reset request', async () => {
      const user = await requestPasswordReset(deps.actions, login, { lifespanSeconds: deps.resetLifespanSeconds, interactionUid: interaction });
      if (user) deps.events?.user({ type: 'SEND_RESET_PASSWORD', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
      else deps.events?.user({ type: 'SEND_RESET_PASSWORD_ERROR', ipAddress: req.ip, error: 'user_not_found', details: { username: login.slice(0, 100) } });
    });
  });

  const forgotHref = `${REALM_PATH}${RESET_PATH}`;
  const unusable = (res: Response) =>
    res
      .status(400)
      .type('html')
      .send(actionLinkUnusablePage({ forgotHref, nonce: nonceOf(res) }));

  router.get(ACTION_TOKEN_PATH, async (req, res) => {
    const key = typeof req.query['key'] === 'string' ? req.query['key'] : '';
    const found = await inspectActionLink(deps.actions, key);
    if (!found) return unusable(res);
    res.type('html').send(
      actionLinkPage({
        action: `${REALM_PATH}${ACTION_TOKEN_PATH}`,
        csrf: forms.browser.issue(req, res, ACTION_TOKEN_PATH),
        key,
        username: found.user.username,
        actions: found.token.actions,
        nonce: nonceOf(res),
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
          action: `${REALM_PATH}${ACTION_TOKEN_PATH}`,
          csrf: forms.browser.issue(req, res, ACTION_TOKEN_PATH),
          key,
          username: found.user.username,
          actions: found.token.actions,
          error,
          nonce: nonceOf(res),
        }),
      );
    const setsPassword = found.token.actions.includes('UPDATE_PASSWORD');
    if (setsPassword && password !== confirm) return again('The two passwords differ.');
    let done;
    try {
      done = await completeActionLink(deps.actions, key, { password: setsPassword ? password : undefined });
    } catch (err) {
      if (err instanceof ActionLinkUnusableError) return unusable(res);
      if (err instanceof InvalidInputError) return again(`The password was refused: ${err.message}.`);
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
        nonce: nonceOf(res),
      }),
    );
  });

  router.get(REGISTRATION_PATH, (req, res, next) => {
    if (!deps.registration) return next();
    const interaction = interactionUid.parse(req.query['interaction']);
    res.type('html').send(
      registerPage({
        action: `${REALM_PATH}${REGISTRATION_PATH}`,
        csrf: forms.browser.issue(req, res, REGISTRATION_PATH),
        interaction,
        loginHref: loginHref(interaction),
        nonce: nonceOf(res),
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
          action: `${REALM_PATH}${REGISTRATION_PATH}`,
          csrf: forms.browser.issue(req, res, REGISTRATION_PATH),
          interaction: form.interaction,
          username: form.username,
          email: form.email,
          error,
          loginHref: loginHref(form.interaction),
          nonce: nonceOf(res),
        }),
      );
    if (await limited(res, [{ limit: deps.limits.registerPerIp, key: req.ip ?? 'unknown' }])) return again(429, 'Too many registrations from here. Try again later.');
    if (!form.email) return again(400, 'An e-mail address is required.');
    if (form.password !== form.confirm) return again(400, 'The two passwords differ.');
    if (await deps.users.users.emailTaken(form.email)) return again(409, 'An account with this e-mail address exists already. Sign in, or use "Forgot password?".');
    let user;
    try {
      ({ user } = await createUser(deps.users, { username: form.username, email: form.email, password: form.password, emailVerified: false, selfRegistered: true }));
    } catch (err) {
      if (err instanceof AlreadyExistsError) return again(409, 'This username is taken.');
      if (err instanceof InvalidInputError) return again(400, `Please correct this: ${err.message}.`);
      throw err;
    }
    deps.events?.user({ type: 'REGISTER', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    await issueActionLink(deps.actions, { ...user, email: form.email }, 'verify-email', {
      actions: ['VERIFY_EMAIL'],
      lifespanSeconds: deps.verifyLifespanSeconds,
      interactionUid: form.interaction,
    });
    deps.events?.user({ type: 'SEND_VERIFY_EMAIL', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    res.status(201).send(registeredPage({ loginHref: loginHref(form.interaction), nonce: nonceOf(res) }));
  });

  router.post(RESEND_VERIFICATION_PATH, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    forms.browser.check(req, RESEND_VERIFICATION_PATH);
    const { login, interaction } = readForm(req, forgotForm);
    if (await limited(res, linkRequestChecks(login, req.ip))) {
      res.status(429).send(checkEmailPage({ what: 'verify', loginHref: loginHref(interaction), nonce: nonceOf(res) }));
      return;
    }
    res.type('html').send(checkEmailPage({ what: 'verify', loginHref: loginHref(interaction), nonce: nonceOf(res) }));
    afterAnswer(res, 'confirmation link request', async () => {
      const user = login ? await deps.actions.users.findByLogin(login) : undefined;
      if (!user?.email || !user.enabled || !user.selfRegistered || user.emailVerified) return;
      await issueActionLink(deps.actions, { ...user, email: user.email }, 'verify-email', {
        actions: ['VERIFY_EMAIL'],
        lifespanSeconds: deps.verifyLifespanSeconds,
        interactionUid: interaction,
      });
      deps.events?.user({ type: 'SEND_VERIFY_EMAIL', userId: user.id, ipAddress: req.ip, details: { username: user.username } });
    });
  });

  router.use(paths, signInPageErrors(deps.logger));
  return router;
}

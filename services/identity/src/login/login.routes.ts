import express, { type Request, type Response } from 'express';
import {
  allowFormTarget,
  CsrfRejectedError,
  nonceOf,
  pageForms,
  pageSecurity,
  readForm,
  requestLogger,
  sendErrorPage,
  type KeyRing,
  type Logger,
  type RateLimit,
} from '@hush/common';
import type Provider from 'oidc-provider';
import type { LoginGate } from './login-gate.js';
import { REALM_PATH } from '../config.js';
import { InteractionMismatchError } from '../errors.js';
import { credentials, loginForm } from './interaction-forms.js';
import {
  identityErrorPage,
  keptUiLocales,
  languageLinks,
  LOGIN_FORM_CHARACTERS,
  PAGE_CATALOGUES,
  refusedForLimit,
  signInPageErrors,
  TOKEN_FORM_CHARACTERS,
  wordsFor,
  type PageKey,
  type PageMessages,
} from '../pages/index.js';
import { consentPage, loginPage } from './login.views.js';
import { REGISTRATION_PATH, RESEND_VERIFICATION_PATH, RESET_PATH, verifyEmailFirstPage } from '../account-links/index.js';
import type { EventRecorder } from '../events/index.js';
import type { InteractionKit, SecondStep } from './second-step.routes.js';
import { authenticateUser, type UsersDeps } from '../users/index.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { ConsentsRepository } from './consents.repository.js';
import { describeScopes } from './scope-descriptions.js';

export interface InteractionDeps {
  provider: () => Provider;
  users: Pick<UsersDeps, 'users'>;
  limiter: Pick<SignInLimits, 'limits' | 'login'>;
  /** Login pages viewed per IP (LOGIN_PAGE_MAX_PER_IP per SIGN_IN_WINDOW): spent before the page is built. */
  pageViews: Pick<RateLimit, 'consume'>;
  /** Lets a sign-in in: per-IP concurrency and a place in the bcrypt pool (login/login-gate.ts). */
  loginGate: LoginGate;
  csrfKey: Buffer | KeyRing;
  /** Our public origin (AUTH_URL), accepted as a form's Origin besides the request's Host. */
  origin?: string;
  logger: Logger;
  /** Keycloak's LOGIN and LOGIN_ERROR user events. */
  events?: Pick<EventRecorder, 'user'>;
  /** The second factor after the password, and passkey sign-in (second-step.routes.ts). */
  secondStep?: SecondStep;
  /** REGISTRATION: the login page links to the registration form. */
  registration?: boolean;
  /** What people allowed clients on the consent page, remembered until revoked. */
  consents: Pick<ConsentsRepository, 'remember'>;
  /** The account console, where a remembered consent is revoked. */
  accountHref: string;
}

/**
 * The login and consent pages oidc-provider redirects to (its devInteractions are off).
 * CSRF: every form carries HMAC(key, interaction uid); the interaction itself is bound to a
 * signed, SameSite cookie, and a POST a browser says came from another site is refused, so a
 * forged POST fails three times over.
 */
export function interactionRoutes(deps: InteractionDeps): express.Router {
  const router = express.Router();
  const forms = pageForms({ csrfKey: deps.csrfKey, origins: deps.origin ? [deps.origin] : [] });
  const base = (uid: string) => `${REALM_PATH}/login-actions/${uid}`;
  // The links carry the authorization request's ui_locales: their pages, and the e-mails they lead to, speak its language.
  const links = (uid: string, uiLocales: unknown) => {
    const kept = keptUiLocales(uiLocales);
    const query = `?interaction=${uid}${kept ? `&${kept}` : ''}`;
    return {
      forgotHref: `${REALM_PATH}${RESET_PATH}${query}`,
      registerHref: deps.registration ? `${REALM_PATH}${REGISTRATION_PATH}${query}` : undefined,
    };
  };

  router.use('/login-actions', pageSecurity());

  const details = async (req: Request, res: Response) => {
    const interaction = await deps.provider().interactionDetails(req, res);
    if (interaction.uid !== req.params['uid']) throw new InteractionMismatchError();
    // The forms' answers end with a redirect to the client: its origin must be a form target.
    allowFormTarget(req, res, interaction.params['redirect_uri']);
    return interaction;
  };

  /** A form must carry the token of its interaction, and answer the prompt it was shown for; else it is refused (400). */
  const checkForm = (req: Request, prompt: string, answers: string) => {
    if (prompt !== answers) throw new CsrfRejectedError();
    forms.check(req, String(req.params['uid']));
  };

  /** The client as the page names it: identity's own clients in the page's language (clientNames), any other by its name. */
  const clientName = async (clientId: unknown, m?: PageMessages) => {
    const id = String(clientId);
    if (m && Object.hasOwn(PAGE_CATALOGUES.en.clientNames, id)) return m.text(`clientNames.${id}` as PageKey);
    const client = await deps.provider().Client.find(id);
    return client?.clientName ?? id;
  };

  const renderLogin = async (res: Response, interaction: { uid: string; params: Record<string, unknown> }, status: number, error: string, username?: string) => {
    const nonce = nonceOf(res);
    const m = wordsFor(res.req, res, interaction.params['ui_locales']);
    const extras = deps.secondStep?.loginExtras(kit, res, interaction.uid, nonce, m);
    res.status(status).send(
      loginPage({
        m,
        action: `${base(interaction.uid)}/login`,
        abort: `${base(interaction.uid)}/abort`,
        csrf: forms.token(interaction.uid),
        clientName: await clientName(interaction.params['client_id'], m),
        username,
        error,
        ...links(interaction.uid, interaction.params['ui_locales']),
        nonce,
        ...extras,
      }),
    );
  };
  const kit: InteractionKit = {
    provider: deps.provider,
    details,
    checkForm,
    forms,
    base,
    clientName,
    loginPage: (_req, res, interaction, status, error) => renderLogin(res, interaction, status, error),
    words: (req, res, interaction) => wordsFor(req, res, interaction.params['ui_locales']),
  };

  router.get('/login-actions/:uid', async (req, res) => {
    // Spent before anything is looked up: an anonymous caller's page views are bounded per address.
    const wait = await deps.pageViews.consume(req.ip ?? 'unknown');
    if (wait > 0) {
      const message = refusedForLimit(res, wait, wordsFor(req, res), 'pageViews');
      sendErrorPage(req, res, { status: 429, code: 'temporarily_unavailable', message, headers: { 'Retry-After': String(wait) } }, identityErrorPage);
      return;
    }
    const interaction = await details(req, res);
    const uid = interaction.uid;
    const nonce = nonceOf(res);
    const m = wordsFor(req, res, interaction.params['ui_locales']);
    const name = await clientName(interaction.params['client_id'], m);
    const languages = languageLinks(req, m.locale);
    if (interaction.prompt.name === 'login') {
      const extras = deps.secondStep?.loginExtras(kit, res, uid, nonce, m);
      res.type('html').send(
        loginPage({
          m,
          languages,
          action: `${base(uid)}/login`,
          abort: `${base(uid)}/abort`,
          csrf: forms.token(uid),
          clientName: name,
          ...links(uid, interaction.params['ui_locales']),
          nonce,
          ...extras,
        }),
      );
      return;
    }
    const d = interaction.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    res.type('html').send(
      consentPage({
        m,
        languages,
        action: `${base(uid)}/confirm`,
        abort: `${base(uid)}/abort`,
        csrf: forms.token(uid),
        clientName: name,
        scopes: describeScopes(m, d.missingOIDCScope ?? [], d.missingResourceScopes ?? {}),
        accountHref: deps.accountHref,
        nonce,
      }),
    );
  });

  // Before the form is read: the address's sign-ins at once, and a place in the bcrypt pool (login/login-gate.ts).
  router.post('/login-actions/:uid/login', deps.loginGate.enter, ...forms.read(LOGIN_FORM_CHARACTERS), async (req, res) => {
    const passwords = deps.loginGate.placeOf(res);
    const interaction = await details(req, res);
    checkForm(req, interaction.prompt.name, 'login');
    const typed = readForm(req, loginForm);
    const { username } = typed;
    const { perUser, perIp } = deps.limiter.login;
    const checks = [
      { limit: perUser, key: `${username.toLowerCase()}:${req.ip}` },
      { limit: perIp, key: req.ip ?? 'unknown' },
    ];
    const render = (status: number, error: string) => renderLogin(res, interaction, status, error, username);

    // The attempt is counted before the password is checked and given back if it is right, so of
    // any number sent at once no more than the limits allow are checked (RateLimits#attempt).
    const given = credentials.safeParse(typed);
    const attempt = await deps.limiter.limits.attempt(
      checks,
      async () => (given.success ? authenticateUser({ users: deps.users.users, passwords }, given.data.username, given.data.password) : undefined),
      (user) => user === undefined,
    );
    if (attempt.blocked) return void (await render(429, refusedForLimit(res, attempt.retryAfter, wordsFor(req, res, interaction.params['ui_locales']), 'failedSignIns')));
    const user = attempt.result;
    const clientId = typeof interaction.params['client_id'] === 'string' ? interaction.params['client_id'] : undefined;
    if (!user) {
      // The username as typed is kept (Keycloak's `details.username`); the password never is.
      deps.events?.user({ type: 'LOGIN_ERROR', clientId, ipAddress: req.ip, error: 'invalid_user_credentials', details: { username: username.slice(0, 100) } });
      requestLogger(deps.logger, res).info({ event: 'login_failed', ip: req.ip }, 'login failed');
      await render(401, wordsFor(req, res, interaction.params['ui_locales']).text('login.invalid'));
      return;
    }
    if (await deps.secondStep?.afterPassword(kit, req, res, interaction, user)) return;
    if (user.selfRegistered && !user.emailVerified) {
      // The password was right, so saying why is no leak; the link to confirm the address can be sent again.
      deps.events?.user({ type: 'LOGIN_ERROR', clientId, userId: user.id, ipAddress: req.ip, error: 'email_not_verified', details: { username: user.username } });
      const kept = keptUiLocales(interaction.params['ui_locales']);
      res.status(403).send(
        verifyEmailFirstPage({
          m: wordsFor(req, res, interaction.params['ui_locales']),
          action: `${REALM_PATH}${RESEND_VERIFICATION_PATH}${kept ? `?${kept}` : ''}`,
          csrf: forms.browser.issue(req, res, RESEND_VERIFICATION_PATH),
          interaction: interaction.uid,
          login: user.username,
          loginHref: base(interaction.uid),
          nonce: nonceOf(res),
        }),
      );
      return;
    }
    deps.events?.user({ type: 'LOGIN', clientId, userId: user.id, ipAddress: req.ip, details: { username: user.username, credential_type: 'password' } });
    await deps.provider().interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });

  router.post('/login-actions/:uid/confirm', ...forms.read(TOKEN_FORM_CHARACTERS), async (req, res) => {
    const provider = deps.provider();
    const interaction = await details(req, res);
    checkForm(req, interaction.prompt.name, 'consent');
    const accountId = interaction.session?.accountId as string;
    const d = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    const grant = interaction.grantId
      ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId, clientId: String(interaction.params['client_id']) }))
      : new provider.Grant({ accountId, clientId: String(interaction.params['client_id']) });
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    // Remembered per person and client, so another session or browser is not asked again (oidc/consent-grant.ts).
    await deps.consents.remember(accountId, grant.clientId as string, { scopes: d.missingOIDCScope ?? [], resourceScopes: d.missingResourceScopes ?? {} });
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  router.post('/login-actions/:uid/abort', ...forms.read(TOKEN_FORM_CHARACTERS), async (req, res) => {
    await details(req, res);
    forms.check(req, String(req.params['uid']));
    await deps.provider().interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
  });

  deps.secondStep?.routes(router, kit);

  // Expired or missing interaction cookies are the common failure here: a page, not a stack trace.
  router.use('/login-actions', signInPageErrors(deps.logger));

  return router;
}

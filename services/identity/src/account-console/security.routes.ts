import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { nonceOf, pageSecurity, readForm, requestLogger, type Attempt, type Html, type Logger } from '@hush/common';
import { ACCOUNT_CONSOLE_FAULT, accountNav, ACCOUNT_PAGES } from './account-nav.js';
import { accountWords, wordsOf } from './account-words.js';
import type { ConsoleSignIn } from '../console-sign-in/index.js';
import { consolePageErrors, refusedForLimit, type PageKey } from '../pages/index.js';
import type { EventRecorder } from '../events/index.js';
import { REALM_PATH } from '../config.js';
import {
  confirmEnrolment,
  EnrolmentExpiredError,
  PasskeyRefusedError,
  regenerateRecoveryCodes,
  registerPasskey,
  registrationOptions,
  removeCredential,
  startEnrolment,
  type PasskeyDeps,
  type SecondFactorDeps,
  type SignInLimits,
} from '../login/index.js';
import { recoveryCodesBody, securityBody, totpEnrolmentBody } from './security.views.js';
import type { UsersRepository } from '../users/index.js';

/**
 * The account console's Security pages (/auth/realms/public/account/security), on the console
 * sign-in (console-sign-in/): the authenticator app (set up, new recovery codes, remove) and passkeys
 * (add, named; remove). Every form carries the console session's CSRF token; only adding a
 * passkey needs JavaScript (WebAuthn), and its form says so. Events: UPDATE_TOTP, REMOVE_TOTP,
 * UPDATE_CREDENTIAL and REMOVE_CREDENTIAL (`details.credential_type`), never a secret or code.
 */
export interface SecurityConsoleDeps {
  signIn: ConsoleSignIn;
  users: Pick<UsersRepository, 'findById'>;
  secondFactor: SecondFactorDeps;
  passkeys: PasskeyDeps;
  limiter: Pick<SignInLimits, 'limits' | 'secondFactor'>;
  events?: Pick<EventRecorder, 'user'> | undefined;
  logger: Logger;
}

export const SECURITY_PATH = ACCOUNT_PAGES.security;

const NOTICES: Record<string, PageKey> = {
  'totp-removed': 'account.security.totpRemoved',
  'passkey-added': 'account.security.passkeyAdded',
  'passkey-removed': 'account.security.passkeyRemoved',
};

const enrolInput = z.object({ code: z.string().max(64).default(''), pending: z.string().max(512).default('') });
const passkeyInput = z.object({ response: z.string().max(16_384).default(''), name: z.string().max(100).default('') });
const registration = z
  .object({
    id: z.string(),
    rawId: z.string(),
    type: z.literal('public-key'),
    response: z.object({ clientDataJSON: z.string(), attestationObject: z.string(), transports: z.array(z.string()).optional() }).loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .loose();

export function securityConsole(deps: SecurityConsoleDeps): express.Router {
  const { signIn } = deps;
  const router = express.Router();
  router.use(pageSecurity());
  router.use(signIn.requireConsoleSession);
  router.use(accountWords((res) => signIn.sessionOf(res).userId, deps.users));
  const base = SECURITY_PATH;
  const binding = (userId: string) => `account ${userId}`;
  const page = (res: Response, title: PageKey, body: Html, status = 200) => {
    const m = wordsOf(res);
    signIn.sendPage(res, { m, console: m.text('account.console'), nav: accountNav(m), current: SECURITY_PATH, title: m.text(title), body }, status);
  };
  const who = async (res: Response) => {
    const user = await deps.users.findById(signIn.sessionOf(res).userId);
    if (!user) throw new Error('signed-in user not found');
    return user;
  };
  const event = (req: Request, res: Response, type: 'UPDATE_TOTP' | 'REMOVE_TOTP' | 'UPDATE_CREDENTIAL' | 'REMOVE_CREDENTIAL', credentialType: string) => {
    const session = signIn.sessionOf(res);
    deps.events?.user({ type, userId: session.userId, clientId: 'account-console', ipAddress: req.ip, details: { username: session.username, credential_type: credentialType } });
  };

  const overview = async (req: Request, res: Response, extra: { notice?: string | undefined; error?: string | undefined; status?: number } = {}) => {
    const user = await who(res);
    const credentials = await deps.secondFactor.credentials.list(user.id);
    const options = await registrationOptions(deps.passkeys, user);
    page(
      res,
      'account.security.title',
      securityBody({
        m: wordsOf(res),
        base,
        csrf: signIn.csrfToken(res),
        nonce: nonceOf(res),
        realmPath: REALM_PATH,
        totp: credentials.find((c) => c.type === 'otp'),
        codesLeft: await deps.secondFactor.credentials.recoveryCodesLeft(user.id),
        passkeys: credentials.filter((c) => c.type === 'webauthn-passwordless'),
        registrationOptions: JSON.stringify(options),
        ...extra,
      }),
      extra.status,
    );
  };

  router.get('/', async (req, res) => {
    const done = typeof req.query['done'] === 'string' ? req.query['done'] : '';
    const notice = Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;
    await overview(req, res, { notice: notice && wordsOf(res).text(notice) });
  });

  const enrolmentPage = async (res: Response, error?: string, status = 200) => {
    const user = await who(res);
    const enrolment = await startEnrolment(deps.secondFactor, binding(user.id), user.username);
    page(res, 'account.security.setUpTitle', totpEnrolmentBody({ m: wordsOf(res), base, csrf: signIn.csrfToken(res), enrolment, error }), status);
  };

  router.get('/totp', async (_req, res) => {
    await enrolmentPage(res);
  });

  router.post('/totp', ...signIn.form(600), async (req, res) => {
    const userId = signIn.sessionOf(res).userId;
    const { code, pending } = readForm(req, enrolInput);
    // Counted before the code is checked, given back if it is right: as at sign-in (login/second-step.routes.ts).
    let attempt: Attempt<string[] | undefined>;
    try {
      attempt = await deps.limiter.limits.attempt(
        [{ limit: deps.limiter.secondFactor.perUser, key: userId }],
        () => confirmEnrolment(deps.secondFactor, { userId, binding: binding(userId), pending, code }),
        (codes) => codes === undefined,
      );
    } catch (err) {
      if (!(err instanceof EnrolmentExpiredError)) throw err;
      await enrolmentPage(res, wordsOf(res).text('enrolment.expired'), 400);
      return;
    }
    if (attempt.blocked) return void (await enrolmentPage(res, refusedForLimit(res, attempt.retryAfter, wordsOf(res), 'wrongCodes'), 429));
    const codes = attempt.result;
    if (!codes) {
      await enrolmentPage(res, wordsOf(res).text('enrolment.wrong'), 400);
      return;
    }
    event(req, res, 'UPDATE_TOTP', 'otp');
    const m = wordsOf(res);
    page(res, 'account.security.setUpDone', recoveryCodesBody({ m, base, codes, intro: m.text('account.security.setUpDoneIntro') }));
  });

  router.post('/recovery-codes', ...signIn.form(0), async (req, res) => {
    const codes = await regenerateRecoveryCodes(deps.secondFactor, signIn.sessionOf(res).userId);
    event(req, res, 'UPDATE_TOTP', 'recovery-authn-code');
    const m = wordsOf(res);
    page(res, 'account.security.newCodesTitle', recoveryCodesBody({ m, base, codes, intro: m.text('account.security.newCodesIntro') }));
  });

  router.post('/totp/remove', ...signIn.form(0), async (req, res) => {
    const userId = signIn.sessionOf(res).userId;
    const totp = (await deps.secondFactor.credentials.list(userId)).find((c) => c.type === 'otp');
    if (totp) {
      await removeCredential(deps.secondFactor, userId, totp.id);
      event(req, res, 'REMOVE_TOTP', 'otp');
    }
    res.redirect(303, `${base}?done=totp-removed`);
  });

  router.post('/passkeys', ...signIn.form(16_384), async (req, res) => {
    const userId = signIn.sessionOf(res).userId;
    const { response, name } = readForm(req, passkeyInput);
    const parsed = registration.safeParse(safeJson(response));
    try {
      if (!parsed.success) throw new PasskeyRefusedError();
      await registerPasskey(deps.passkeys, userId, parsed.data, name);
    } catch (err) {
      if (!(err instanceof PasskeyRefusedError)) throw err;
      requestLogger(deps.logger, res).info({ event: 'passkey_refused' }, 'passkey registration refused');
      await overview(req, res, { error: wordsOf(res).text('account.security.notAdded'), status: 400 });
      return;
    }
    event(req, res, 'UPDATE_CREDENTIAL', 'webauthn-passwordless');
    res.redirect(303, `${base}?done=passkey-added`);
  });

  router.post('/passkeys/:id/remove', ...signIn.form(0), async (req, res) => {
    const userId = signIn.sessionOf(res).userId;
    const passkey = (await deps.secondFactor.credentials.list(userId)).find((c) => c.id === req.params['id'] && c.type === 'webauthn-passwordless');
    if (passkey) {
      await removeCredential(deps.secondFactor, userId, passkey.id);
      event(req, res, 'REMOVE_CREDENTIAL', 'webauthn-passwordless');
    }
    res.redirect(303, `${base}?done=passkey-removed`);
  });

  router.use(consolePageErrors(deps.logger, ACCOUNT_CONSOLE_FAULT));
  return router;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

import type express from 'express';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { allowConnectSelf, html, nonceOf, readForm, type Attempt, type Html, type PageForms } from '@hush/common';
import type { EventRecorder } from '../events/index.js';
import { csrfField, refusedForLimit, type PageMessages } from '../pages/index.js';
import { authenticatePasskey, authenticationOptions, PasskeyRefusedError, type PasskeyDeps } from './passkeys.js';
import { confirmEnrolment, EnrolmentExpiredError, startEnrolment, verifySecondFactor, type SecondFactorDeps } from './second-factor.js';
import { passkeyScript, WEBAUTHN_SCRIPT_PATH } from './second-factor.views.js';
import { REALM_PATH } from '../config.js';
import { codePage, enrolledPage, requiredEnrolmentPage } from './second-step.views.js';
import type { User, UsersRepository } from '../users/index.js';
import type { SignInLimits } from './sign-in-limits.js';

/**
 * The sign-in's second step, and "Sign in with a passkey". Rules:
 * - after a right password, a person with TOTP must give a code (or a recovery code) before the
 *   sign-in finishes; a member of an organization that requires a second factor and has none sets
 *   up TOTP first; everyone else is done;
 * - what the password step proved is kept in Redis under the interaction's uid (the interaction is
 *   bound to the browser's signed cookie) for STEP_SECONDS, never in the page;
 * - wrong codes count against the person (SECOND_FACTOR_MAX_FAILURES per AUTH_FAILURE_WINDOW),
 *   whichever browser they come from; once blocked, every code is refused until the window ends;
 *   an attempt is counted before its code is checked and given back if the code is right, so of
 *   any number of codes sent at once no more than the limit are checked;
 * - a passkey (discoverable, user-verified) signs a person in alone, in place of both steps;
 * - LOGIN events name the credential that completed the sign-in (`details.credential_type`,
 *   Keycloak's names); codes never appear in events or logs.
 */
export const STEP_SECONDS = 600;

export interface SecondStepDeps {
  redis: Redis;
  /** REDIS_PREFIX. */
  prefix: string;
  secondFactor: SecondFactorDeps;
  passkeys: PasskeyDeps;
  users: Pick<UsersRepository, 'findById'>;
  limiter: Pick<SignInLimits, 'limits' | 'secondFactor'>;
  events?: Pick<EventRecorder, 'user'> | undefined;
}

/** What the login router lends the second step: its checks and helpers, bound to the current interaction. */
export interface InteractionKit {
  provider(): Provider;
  details(req: Request, res: Response): Promise<{ uid: string; params: Record<string, unknown>; prompt: { name: string } }>;
  checkForm(req: Request, prompt: string, answers: string): void;
  /** Answers the login page again, with `error`. */
  loginPage(req: Request, res: Response, interaction: { uid: string; params: Record<string, unknown> }, status: number, error: string): Promise<void>;
  forms: PageForms;
  base(uid: string): string;
  /** The client as the page names it, in `m`'s language for identity's own clients. */
  clientName(clientId: unknown, m?: PageMessages): Promise<string>;
  /** The sign-in page's words, in its language (the authorization request's ui_locales among the hints). */
  words(req: Request, res: Response, interaction: { params: Record<string, unknown> }): PageMessages;
}

type Stage = 'code' | 'enrol' | 'enrolled';
interface Pending {
  userId: string;
  username: string;
  stage: Stage;
}

const codeInput = z.object({ code: z.string().max(64).default('') });
const enrolInput = z.object({ code: z.string().max(64).default(''), pending: z.string().max(512).default('') });
const passkeyInput = z.object({ response: z.string().max(16_384).default('') });
const assertion = z
  .object({
    id: z.string(),
    rawId: z.string(),
    type: z.literal('public-key'),
    response: z.object({ clientDataJSON: z.string(), authenticatorData: z.string(), signature: z.string(), userHandle: z.string().optional() }).loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .loose();

export const LOGIN_PASSKEY_FORM = 'passkey-login';

export function secondStep(deps: SecondStepDeps) {
  const key = (uid: string) => `${deps.prefix}second-step:${uid}`;
  const save = (uid: string, pending: Pending) => deps.redis.set(key(uid), JSON.stringify(pending), 'EX', STEP_SECONDS);
  const load = async (uid: string): Promise<Pending | undefined> => {
    const text = await deps.redis.get(key(uid));
    return text ? (JSON.parse(text) as Pending) : undefined;
  };
  const enrolBinding = (uid: string) => `sign-in ${uid}`;
  const clientIdOf = (params: Record<string, unknown>) => (typeof params['client_id'] === 'string' ? params['client_id'] : undefined);
  /** Wrong codes the person may still give in this window (the code page says it); undefined when Redis cannot tell. */
  const attemptsLeft = async (userId: string): Promise<number | undefined> => {
    const { perUser } = deps.limiter.secondFactor;
    if (deps.redis.status !== 'ready') return undefined;
    try {
      return Math.max(0, perUser.points - Number((await deps.redis.get(perUser.storeKey(userId))) ?? 0));
    } catch {
      return undefined;
    }
  };

  const finish = async (
    kit: InteractionKit,
    req: Request,
    res: Response,
    interaction: { uid: string; params: Record<string, unknown> },
    user: { id: string; username: string },
    credentialType: string,
    amr: string[],
  ) => {
    await deps.redis.del(key(interaction.uid));
    // Disabled (or deleted) since the password step: no sign-in.
    const current = await deps.users.findById(user.id);
    if (!current?.enabled) return kit.loginPage(req, res, interaction, 401, kit.words(req, res, interaction).text('login.invalid'));
    deps.events?.user({
      type: 'LOGIN',
      clientId: clientIdOf(interaction.params),
      userId: user.id,
      ipAddress: req.ip,
      details: { username: user.username, credential_type: credentialType },
    });
    await kit.provider().interactionFinished(req, res, { login: { accountId: user.id, amr } }, { mergeWithLastSubmission: false });
  };

  return {
    /** After a right password: true when a further step was shown (the sign-in goes on there), false when the sign-in may finish. */
    async afterPassword(kit: InteractionKit, req: Request, res: Response, interaction: { uid: string; params: Record<string, unknown> }, user: User): Promise<boolean> {
      const m = kit.words(req, res, interaction);
      const page = {
        base: kit.base(interaction.uid),
        csrf: kit.forms.token(interaction.uid),
        clientName: await kit.clientName(interaction.params['client_id'], m),
        nonce: nonceOf(res),
        m,
      };
      if (await deps.secondFactor.credentials.hasType(user.id, 'otp')) {
        await save(interaction.uid, { userId: user.id, username: user.username, stage: 'code' });
        res.type('html').send(codePage({ ...page, username: user.username, attemptsLeft: await attemptsLeft(user.id) }));
        return true;
      }
      if (await deps.secondFactor.credentials.organizationRequires(user.organizationId)) {
        await save(interaction.uid, { userId: user.id, username: user.username, stage: 'enrol' });
        const enrolment = await startEnrolment(deps.secondFactor, enrolBinding(interaction.uid), user.username);
        res.type('html').send(requiredEnrolmentPage({ ...page, enrolment }));
        return true;
      }
      return false;
    },

    /**
     * The login page's "Sign in with a passkey" form. Its button asks for the ceremony's options
     * (`…/passkey-options`, with the form's token) only when pressed, so a page view stores no
     * challenge; the page may fetch from its own origin for that.
     */
    loginExtras(kit: InteractionKit, res: Response, uid: string, nonce: string, m: PageMessages): { extra: Html; script: string } {
      allowConnectSelf(res.req, res);
      const extra = html`<form method="post" action="${kit.base(uid)}/passkey" id="${LOGIN_PASSKEY_FORM}" data-options-url="${kit.base(uid)}/passkey-options" data-failed="${m.text('passkey.notUsed', { error: '{error}' })}">
${csrfField(kit.forms.token(uid))}<input type="hidden" name="response" value="">
<p class="note" data-needs-js>${m.text('login.passkeyNeedsScript')}</p>
<button type="submit" class="secondary" data-passkey hidden>${m.text('login.passkey')}</button>
</form><script nonce="${nonce}" src="${WEBAUTHN_SCRIPT_URL}"></script>`;
      return { extra, script: passkeyScript(LOGIN_PASSKEY_FORM, 'authentication') };
    },

    routes(router: express.Router, kit: InteractionKit): void {
      const { perUser } = deps.limiter.secondFactor;
      const pageOf = async (res: Response, interaction: { uid: string; params: Record<string, unknown> }, error?: string) => {
        const m = kit.words(res.req, res, interaction);
        return {
          m,
          base: kit.base(interaction.uid),
          csrf: kit.forms.token(interaction.uid),
          clientName: await kit.clientName(interaction.params['client_id'], m),
          nonce: nonceOf(res),
          error,
        };
      };
      /** The step's state, if the sign-in is at `stage`. */
      const pendingOf = async (uid: string, stage: Stage) => {
        const pending = await load(uid);
        return pending?.stage === stage ? pending : undefined;
      };
      /** A code checked by `check` (undefined: wrong), counted against the person first and given back if right (RateLimits#attempt). */
      const checked = <T>(userId: string, check: () => Promise<T | undefined>) =>
        deps.limiter.limits.attempt([{ limit: perUser, key: userId }], check, (result) => result === undefined);
      const startAgain = (req: Request, res: Response, interaction: { uid: string; params: Record<string, unknown> }) =>
        kit.loginPage(req, res, interaction, 400, kit.words(req, res, interaction).text('login.expired'));

      router.post('/login-actions/:uid/otp', ...kit.forms.read(64), async (req, res) => {
        const interaction = await kit.details(req, res);
        kit.checkForm(req, interaction.prompt.name, 'login');
        const pending = await pendingOf(interaction.uid, 'code');
        if (!pending) return void (await startAgain(req, res, interaction));
        const page = await pageOf(res, interaction);
        const { code } = readForm(req, codeInput);
        const attempt = await checked(pending.userId, async () => (code.trim() === '' ? undefined : verifySecondFactor(deps.secondFactor, pending.userId, code)));
        const step = { ...page, username: pending.username };
        if (attempt.blocked) return void res.status(429).send(codePage({ ...step, attemptsLeft: 0, error: refusedForLimit(res, attempt.retryAfter, page.m, 'wrongCodes') }));
        const kind = attempt.result;
        if (!kind) {
          deps.events?.user({
            type: 'LOGIN_ERROR',
            clientId: clientIdOf(interaction.params),
            userId: pending.userId,
            ipAddress: req.ip,
            error: 'invalid_user_credentials',
            details: { username: pending.username, credential_type: 'otp' },
          });
          res.status(401).send(codePage({ ...step, attemptsLeft: await attemptsLeft(pending.userId), error: page.m.text('secondStep.wrong') }));
          return;
        }
        await finish(
          kit,
          req,
          res,
          interaction,
          { id: pending.userId, username: pending.username },
          kind === 'otp' ? 'otp' : 'recovery-authn-code',
          kind === 'otp' ? ['pwd', 'otp', 'mfa'] : ['pwd', 'mfa'],
        );
      });

      router.post('/login-actions/:uid/enrol', ...kit.forms.read(600), async (req, res) => {
        const interaction = await kit.details(req, res);
        kit.checkForm(req, interaction.prompt.name, 'login');
        const pending = await pendingOf(interaction.uid, 'enrol');
        if (!pending) return void (await startAgain(req, res, interaction));
        const page = await pageOf(res, interaction);
        const again = async (error: string) =>
          requiredEnrolmentPage({ ...page, error, enrolment: await startEnrolment(deps.secondFactor, enrolBinding(interaction.uid), pending.username) });
        const { code, pending: sealed } = readForm(req, enrolInput);
        let attempt: Attempt<string[] | undefined>;
        try {
          attempt = await checked(pending.userId, () =>
            confirmEnrolment(deps.secondFactor, { userId: pending.userId, binding: enrolBinding(interaction.uid), pending: sealed, code }),
          );
        } catch (err) {
          if (!(err instanceof EnrolmentExpiredError)) throw err;
          res.status(400).send(await again(page.m.text('enrolment.expired')));
          return;
        }
        if (attempt.blocked) return void res.status(429).send(await again(refusedForLimit(res, attempt.retryAfter, page.m, 'wrongCodes')));
        const codes = attempt.result;
        if (!codes) {
          res.status(400).send(await again(page.m.text('enrolment.wrong')));
          return;
        }
        deps.events?.user({ type: 'UPDATE_TOTP', clientId: clientIdOf(interaction.params), userId: pending.userId, ipAddress: req.ip, details: { username: pending.username } });
        await save(interaction.uid, { ...pending, stage: 'enrolled' });
        res.send(enrolledPage({ ...page, codes }));
      });

      router.post('/login-actions/:uid/continue', ...kit.forms.read(0), async (req, res) => {
        const interaction = await kit.details(req, res);
        kit.checkForm(req, interaction.prompt.name, 'login');
        const pending = await pendingOf(interaction.uid, 'enrolled');
        if (!pending) return void (await startAgain(req, res, interaction));
        await finish(kit, req, res, interaction, { id: pending.userId, username: pending.username }, 'otp', ['pwd', 'otp', 'mfa']);
      });

      // The options of a passkey sign-in, asked for by the login page's passkey button: the
      // challenge is stored (for CHALLENGE_SECONDS, one per sign-in) only now.
      router.post('/login-actions/:uid/passkey-options', ...kit.forms.read(0), async (req, res) => {
        const interaction = await kit.details(req, res);
        kit.checkForm(req, interaction.prompt.name, 'login');
        res.set('Cache-Control', 'no-store').json(await authenticationOptions(deps.passkeys, interaction.uid));
      });

      router.post('/login-actions/:uid/passkey', ...kit.forms.read(16_384), async (req, res) => {
        const interaction = await kit.details(req, res);
        kit.checkForm(req, interaction.prompt.name, 'login');
        const parsed = assertion.safeParse(safeJson(readForm(req, passkeyInput).response));
        const refuse = () => {
          deps.events?.user({
            type: 'LOGIN_ERROR',
            clientId: clientIdOf(interaction.params),
            ipAddress: req.ip,
            error: 'invalid_user_credentials',
            details: { credential_type: 'webauthn-passwordless' },
          });
          return kit.loginPage(req, res, interaction, 401, kit.words(req, res, interaction).text('passkey.refused'));
        };
        if (!parsed.success) return void (await refuse());
        let who: { userId: string };
        try {
          who = await authenticatePasskey(deps.passkeys, interaction.uid, parsed.data);
        } catch (err) {
          if (err instanceof PasskeyRefusedError) return void (await refuse());
          throw err;
        }
        const user = await deps.users.findById(who.userId);
        if (!user || user.serviceAccountClientId !== null) return void (await refuse());
        await finish(kit, req, res, interaction, user, 'webauthn-passwordless', ['hwk', 'user', 'mfa']);
      });
    },
  };
}

export type SecondStep = ReturnType<typeof secondStep>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Where the WebAuthn browser bundle is served, under the realm. */
export const WEBAUTHN_SCRIPT_URL = `${REALM_PATH}${WEBAUTHN_SCRIPT_PATH}`;

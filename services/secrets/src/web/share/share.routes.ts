import express, { type Request, type RequestHandler, type Response } from 'express';
import { formField, toDomainError } from '@hush/common';
import { NOTIFY_EVENTS, type NotifyEvent } from '@hush/queue';
import { PLANS } from '../../accounts/plans.js';
import { isAnonymous, type Principal } from '../../auth/principal.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { PreferencesRepository } from '../../accounts/preferences.repository.js';
import { showMetadata } from '../../secrets/metadata.js';
import { PASSPHRASE_MAX_LENGTH, secretsInputs } from '../../secrets/params.js';
import { presentMetadata } from '../../secrets/presenter.js';
import { generateSecret, planFor, shareSecret } from '../../secrets/share.js';
import type { PageContext, PageSessions } from '../shared/index.js';
import { generatedPage, sharePage } from './share.views.js';
import { ttlChoices } from './ttl-choices.js';

export interface ShareOptions {
  /**
   * ANONYMOUS_SHARES: the share page (GET and POST /) also serves a signed-out visitor, as the
   * anonymous principal (its plan, no recipient), limited per IP by `limiter`; the form's CSRF
   * token is then bound to the browser instead of a session.
   */
  anonymous?: { limiter: RateLimiter } | undefined;
  /** The accounts' settings: the notifications a new secret asks for by default. */
  preferences?: Pick<PreferencesRepository, 'get'> | undefined;
}

/** The form's notification boxes (`notify_<event>`) as the API's `notify` events. */
function notifyChoices(req: { body?: unknown }): NotifyEvent[] {
  return NOTIFY_EVENTS.filter((event) => formField(req, `notify_${event}`) !== undefined);
}

/** A recipient's and a notification address, the form's buttons, boxes and choices. */
const SHORT_FIELDS_CHARACTERS = 640;

/**
 * The share page: a secret (or a generated password) with a lifetime, an optional passphrase and
 * an optional recipient, shared through the same use-cases as the API. A shared secret's result
 * page is its receipt; a generated password is shown once, with its receipt below.
 */
export function shareRoutes(ctx: PageContext, sessions: PageSessions, options: ShareOptions = {}): express.Router {
  const { secrets, forms, baseUrl } = ctx;
  const inputs = secretsInputs(secrets.settings.ttl);
  const ttl = ttlChoices(secrets.settings.ttl);
  const router = express.Router();
  // The longest secret any caller may share, with a passphrase: the form must hold them at their worst encoding.
  const longestSecret = Math.max(...Object.values(PLANS).map((p) => p.maxSecretLength), options.anonymous ? secrets.settings.anonymousMaxSecretLength : 0);
  const readForm = forms.read(longestSecret + PASSPHRASE_MAX_LENGTH + SHORT_FIELDS_CHARACTERS);

  const anonymous = options.anonymous && { limit: options.anonymous.limiter.byIp() };
  const sharer = anonymous ? sessions.signedInOrAnonymous : sessions.signedIn;
  const isAnonymousVisitor = (res: Response) => isAnonymous(sessions.principalOf(res));
  /** The share form's CSRF token: bound to the session, or for an anonymous visitor to the browser. */
  const shareCsrf = (req: Request, res: Response) => (isAnonymousVisitor(res) ? forms.browser.issue(req, res, 'share') : sessions.csrfToken(sessions.sessionOf(res), 'share'));
  const checkShareCsrf: RequestHandler = (req, res, next) => {
    if (isAnonymousVisitor(res)) forms.browser.check(req, 'share');
    else sessions.checkCsrf(req, sessions.sessionOf(res), 'share');
    next();
  };
  /** Accounts by account (RATE_LIMIT_*), anonymous visitors by address (ANONYMOUS_RATE_LIMIT_*). */
  const byAccount = ctx.limiter.byAccount();
  const shareLimit: RequestHandler = (req, res, next) => (anonymous && isAnonymousVisitor(res) ? anonymous.limit(req, res, next) : byAccount(req, res, next));

  const planOfCaller = async (principal: Principal) => {
    const plan = await planFor(secrets, principal);
    return { name: plan.name, maxLength: plan.maxSecretLength };
  };

  router.get('/', sharer, async (req, res) => {
    const principal = sessions.principalOf(res);
    res.send(
      sharePage(sessions.chrome(res, 'share'), {
        csrf: shareCsrf(req, res),
        plan: await planOfCaller(principal),
        anonymous: isAnonymous(principal),
        ttlOptions: ttl.options,
        values: { ttl: ttl.selected, notify: isAnonymous(principal) ? [] : (await options.preferences?.get(principal.custid))?.notifyOn },
      }),
    );
  });

  router.post('/', ...readForm, sharer, checkShareCsrf, shareLimit, async (req, res) => {
    const principal = sessions.principalOf(res);
    const fields = {
      ttl: formField(req, 'ttl'),
      passphrase: formField(req, 'passphrase'),
      recipient: formField(req, 'recipient'),
      recipient_only: formField(req, 'recipient_only'),
      notify: notifyChoices(req).join(','),
      // The account's verified address, unless another is given (web accounts are usernames, not addresses).
      notify_email: formField(req, 'notify_email')?.trim() || principal.email,
    };
    try {
      if (formField(req, 'action') === 'generate') {
        const created = await generateSecret(secrets, principal, inputs.generate.parse(fields));
        const metadata = presentMetadata(await showMetadata(secrets, created.metadataKey, false));
        res.send(generatedPage(sessions.chrome(res, 'share'), created.value ?? '', metadata, baseUrl, isAnonymous(principal)));
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
        sharePage(sessions.chrome(res, 'share'), {
          csrf: shareCsrf(req, res),
          plan: await planOfCaller(principal),
          anonymous: isAnonymous(principal),
          ttlOptions: ttl.options,
          values: {
            secret: formField(req, 'secret'),
            ttl: ttl.options.some((o) => o.seconds === ttlValue) ? ttlValue : ttl.selected,
            recipient: fields.recipient,
            recipientOnly: fields.recipient_only !== undefined,
            notify: notifyChoices(req),
            notifyEmail: formField(req, 'notify_email'),
          },
          error: `${known.message}.`.replace(/\.\.$/, '.'),
        }),
      );
    }
  });

  return router;
}

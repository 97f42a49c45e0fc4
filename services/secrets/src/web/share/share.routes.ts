import express, { type RequestHandler } from 'express';
import { formField, toDomainError } from '@hush/common';
import { PLANS } from '../../accounts/plans.js';
import { isAnonymous, type Principal } from '../../auth/principal.js';
import { showMetadata } from '../../secrets/metadata.js';
import { PASSPHRASE_MAX_LENGTH, secretsInputs } from '../../http/secrets-params.js';
import { presentMetadata } from '../../secrets/presenter.js';
import { generateSecret, planFor, shareSecret } from '../../secrets/share.js';
import { formErrorText, wordsOf, type PageContext, type PageSessions } from '../shared/index.js';
import { generatedPage, sharePage } from './share.views.js';
import { ttlChoices } from './ttl-choices.js';
import { zkShareRoutes } from './zk-share.routes.js';
import { notifyChoices, shareAccess, shareFormOptions, SHORT_FIELDS_CHARACTERS, type ShareOptions } from './share-access.js';
import { fetchingPage } from '../zk/index.js';

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

  const access = shareAccess(ctx, sessions, options);
  const { sharer, limit: shareLimit } = access;
  const shareCsrf = access.csrf;
  const checkShareCsrf: RequestHandler = (req, res, next) => {
    access.checkCsrf(req, res);
    next();
  };
  const zk = (principal: Principal) => ({ script: ctx.script, fileMaxBytes: isAnonymous(principal) ? undefined : ctx.zk.zk.fileMaxBytes });

  const planOfCaller = async (principal: Principal) => {
    const plan = await planFor(secrets, principal);
    return { name: plan.name, maxLength: plan.maxSecretLength };
  };

  router.get('/', sharer, async (req, res) => {
    const principal = sessions.principalOf(res);
    fetchingPage(req, res);
    res.send(
      sharePage(sessions.chrome(res, 'share'), {
        csrf: shareCsrf(req, res),
        plan: await planOfCaller(principal),
        anonymous: isAnonymous(principal),
        ttlOptions: ttl.options,
        values: { ttl: ttl.selected, notify: isAnonymous(principal) ? [] : (await options.preferences?.get(principal.custid))?.notifyOn },
        zk: zk(principal),
      }),
    );
  });

  router.post('/', ...readForm, sharer, checkShareCsrf, shareLimit, async (req, res) => {
    const principal = sessions.principalOf(res);
    const fields = { ...shareFormOptions(req, principal, wordsOf(res).locale), passphrase: formField(req, 'passphrase') };
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
      fetchingPage(req, res);
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
          error: formErrorText(wordsOf(res), known),
          zk: zk(principal),
        }),
      );
    }
  });

  router.use(zkShareRoutes(ctx, sessions, access));
  return router;
}

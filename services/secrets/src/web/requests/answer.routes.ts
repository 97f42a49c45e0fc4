import express, { type Request, type Response } from 'express';
import { formField, pageSecurity, toDomainError } from '@hush/common';
import { PLANS } from '../../accounts/plans.js';
import { UnknownRequestError } from '../../errors.js';
import { answerRequestInput, PASSPHRASE_MAX_LENGTH } from '../../http/secrets-params.js';
import { answerRequest, openRequest } from '../../secrets/requests.js';
import { apiPathOf } from '../../http/api.routes.js';
import { formErrorText, pageFrame, wordsOf, type PageContext } from '../shared/index.js';
import { linkPage } from '../zk/index.js';
import { answeredPage, answerPage, requestClosedPage } from './answer.views.js';

/**
 * The page behind a request link, for whoever holds it (no account). GET changes nothing, so
 * link scanners spend nothing; the secret is sent by the form's POST, which must carry the page's
 * CSRF token (bound to the browser) and come from this site. It goes through the same use-case as
 * POST /api/v1/request/:key; the request closes in the statement that stores the secret.
 */
export function answerRoutes(ctx: Pick<PageContext, 'secrets' | 'forms' | 'limiter' | 'script'>): express.Router {
  const { secrets, forms } = ctx;
  const router = express.Router();
  const answer = (requestKey: string) => ({ action: `/request/${requestKey}`, resource: `answer ${requestKey}` });
  const keyOf = (req: Request) => String(req.params['key']);
  const longestSecret = Math.max(...Object.values(PLANS).map((p) => p.maxSecretLength));
  const closed = (res: Response) => res.status(404).send(requestClosedPage(pageFrame(res)));
  // A zero-knowledge request is answered by the page's script, through the API (no credentials needed).
  const zkAnswer = apiPathOf('zkAnswerRequest');

  router.use('/request', pageSecurity());

  const form = async (req: Request, res: Response, requestKey: string, extra: { error?: string; secret?: string | undefined } = {}) => {
    const r = await openRequest(secrets, requestKey);
    const { action, resource } = answer(requestKey);
    if (r.publicKey !== null) linkPage(req, res);
    return answerPage(pageFrame(res), {
      action,
      csrf: forms.browser.issue(req, res, resource),
      label: r.label,
      requester: r.requester,
      passphrasePolicy: r.passphrasePolicy,
      maxLength: r.maxSecretLength,
      zk: r.publicKey === null ? undefined : { answer: zkAnswer.replace(':key', requestKey), publicKey: r.publicKey, script: ctx.script },
      ...extra,
    });
  };

  router.get('/request/:key', async (req, res) => {
    try {
      res.send(await form(req, res, keyOf(req)));
    } catch (err) {
      if (!(err instanceof UnknownRequestError)) throw err;
      closed(res);
    }
  });

  router.post('/request/:key', ctx.limiter.byIp(), ...forms.read(longestSecret + PASSPHRASE_MAX_LENGTH), async (req, res) => {
    const requestKey = keyOf(req);
    forms.browser.check(req, answer(requestKey).resource);
    const fields = { secret: formField(req, 'secret'), passphrase: formField(req, 'passphrase') };
    try {
      res.send(answeredPage(pageFrame(res), await answerRequest(secrets, requestKey, answerRequestInput.parse(fields))));
    } catch (err) {
      if (err instanceof UnknownRequestError) {
        closed(res);
        return;
      }
      const known = toDomainError(err);
      if (!known || known.status >= 500 || known.status === 429) throw err;
      try {
        res.status(known.status).send(await form(req, res, requestKey, { error: formErrorText(wordsOf(res), known), secret: fields.secret }));
      } catch (again) {
        if (!(again instanceof UnknownRequestError)) throw again;
        closed(res);
      }
    }
  });

  return router;
}

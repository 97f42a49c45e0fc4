import express, { type Response } from 'express';
import { formField, toDomainError } from '@hush/common';
import { UnknownRequestError } from '../../errors.js';
import { createRequestParser } from '../../http/secrets-params.js';
import { cancelRequest, createRequest, listRequests } from '../../secrets/requests.js';
import { presentRequest } from '../../secrets/requests.presenter.js';
import { wordsOf, type PageContext, type PageSessions } from '../shared/index.js';
import { ttlChoices } from '../share/index.js';
import { requestsPage, type RequestForm } from './requests.views.js';

/** Label, address, the choices and the token. */
const REQUEST_FORM_CHARACTERS = 1024;

/**
 * Secret requests of the signed-in account: the form that makes one (through the same use-case
 * and parser as POST /api/v1/requests), the list with each open request's link, and cancel.
 */
export function requestsRoutes(ctx: Pick<PageContext, 'secrets' | 'baseUrl' | 'limiter' | 'script'>, sessions: PageSessions): express.Router {
  const { secrets, baseUrl } = ctx;
  const parser = createRequestParser(secrets.settings.ttl);
  const ttl = ttlChoices(secrets.settings.ttl);
  const router = express.Router();

  const render = async (res: Response, extra: { created?: string | undefined; notice?: string | undefined; error?: string; values?: RequestForm['values'] } = {}) => {
    const session = sessions.sessionOf(res);
    const requests = (await listRequests(secrets, sessions.principalOf(res))).map((view) => presentRequest(view, baseUrl));
    res.send(
      requestsPage(sessions.chrome(res, 'requests'), {
        requests,
        created: extra.created,
        notice: extra.notice,
        form: { csrf: sessions.csrfToken(session, 'request'), ttlOptions: ttl.options, values: extra.values ?? { ttl: ttl.selected, secretTtl: ttl.selected }, error: extra.error },
        cancelCsrf: sessions.csrfToken(session, 'cancel-request'),
        script: ctx.script,
      }),
    );
  };

  router.get('/ask', sessions.signedIn, async (req, res) => {
    const created = typeof req.query['created'] === 'string' ? req.query['created'] : undefined;
    await render(res, { created, notice: req.query['cancelled'] === '1' ? wordsOf(res).text('requests.cancelled') : undefined });
  });

  router.post('/ask', ...sessions.post('request', REQUEST_FORM_CHARACTERS), ctx.limiter.byAccount(), async (req, res) => {
    const fields = {
      label: formField(req, 'label'),
      ttl: formField(req, 'ttl'),
      secret_ttl: formField(req, 'secret_ttl'),
      passphrase_policy: formField(req, 'passphrase_policy'),
      recipient: formField(req, 'recipient'),
      // Made by the page's script: the request is then zero-knowledge (docs/zero-knowledge.md §5).
      public_key: formField(req, 'public_key'),
    };
    try {
      const { record } = await createRequest(secrets, sessions.principalOf(res), parser.parse(fields));
      // Post/Redirect/Get: the list shows the new request's link at the top.
      res.redirect(303, `/ask?created=${record.id}`);
    } catch (err) {
      const known = toDomainError(err);
      if (!known || known.status >= 500 || known.status === 429) throw err;
      res.status(known.status);
      await render(res, {
        error: `${known.message}.`.replace(/\.\.$/, '.'),
        values: {
          label: fields.label,
          ttl: Number(fields.ttl) || ttl.selected,
          secretTtl: Number(fields.secret_ttl) || ttl.selected,
          passphrasePolicy: fields.passphrase_policy,
          recipient: fields.recipient,
        },
      });
    }
  });

  router.post('/ask/cancel', ...sessions.post('cancel-request'), async (req, res) => {
    try {
      await cancelRequest(secrets, sessions.principalOf(res), formField(req, 'id') ?? '');
    } catch (err) {
      if (!(err instanceof UnknownRequestError)) throw err;
    }
    res.redirect(303, '/ask?cancelled=1');
  });
  return router;
}

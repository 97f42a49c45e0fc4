import express from 'express';
import { formField } from '@hush/common';
import { UnknownSecretError } from '../../errors.js';
import { wordsOf, type PageContext, type PageSessions } from '../shared/index.js';
import { burnOwnSecret, mySecrets, ownSecretShortkey } from './my-secrets.js';
import { burnConfirmPage, mySecretsPage } from './my-secrets.views.js';

const PAGE_SIZE = 20;

/** My secrets: the account's secrets, newest first, each with its receipt and, while unread, a burn button (confirmed on a second page). */
export function mySecretsRoutes(ctx: Pick<PageContext, 'secrets'>, sessions: PageSessions): express.Router {
  const { secrets } = ctx;
  const router = express.Router();

  router.get('/secrets', sessions.signedIn, async (req, res) => {
    const raw = req.query['before'];
    const before = typeof raw === 'string' && /^[A-Za-z0-9_-]{1,40}$/.test(raw) ? raw : undefined;
    const { items, next } = await mySecrets(secrets, sessions.principalOf(res), PAGE_SIZE, before);
    const notice = req.query['burned'] === '1' ? wordsOf(res).text('mySecrets.burnedNotice') : undefined;
    res.send(mySecretsPage(sessions.chrome(res, 'secrets'), { items, next, notice, burnCsrf: sessions.csrfToken(sessions.sessionOf(res), 'burn') }));
  });

  router.post('/secrets/burn', ...sessions.post('burn'), async (req, res) => {
    const ref = formField(req, 'ref') ?? '';
    const principal = sessions.principalOf(res);
    if (formField(req, 'confirm') !== 'yes') {
      const shortkey = await ownSecretShortkey(secrets, principal, ref);
      res.send(burnConfirmPage(sessions.chrome(res, 'secrets'), { ref, shortkey, csrf: sessions.csrfToken(sessions.sessionOf(res), 'burn') }));
      return;
    }
    try {
      await burnOwnSecret(secrets, principal, ref);
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
    }
    res.redirect(303, '/secrets?burned=1');
  });

  return router;
}

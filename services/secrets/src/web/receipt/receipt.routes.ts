import express, { type Request } from 'express';
import { pageSecurity } from '@hush/common';
import { UnknownSecretError } from '../../errors.js';
import { burnSecret, showMetadata } from '../../secrets/metadata.js';
import { presentMetadata } from '../../secrets/presenter.js';
import { pageFrame, wordsOf, type PageContext, type Viewer } from '../shared/index.js';
import { receiptNotFoundPage, receiptPage } from './receipt.views.js';

/** The burn form holds nothing but its token. */
const BURN_FORM_CHARACTERS = 0;

/**
 * The creator's receipt behind the private link: the secret's state and, while it is unread, its
 * link and a burn button. It needs no session (the link is the credential); a signed-in creator
 * keeps the navigation (`viewer`). The burn form's CSRF token is bound to the browser.
 */
export function receiptRoutes(ctx: Pick<PageContext, 'secrets' | 'baseUrl' | 'forms' | 'limiter' | 'script'>, viewer: Viewer): express.Router {
  const { secrets, forms } = ctx;
  const router = express.Router();
  const burn = (metadataKey: string) => ({ action: `/private/${metadataKey}/burn`, resource: `burn ${metadataKey}` });
  const keyOf = (req: Request) => String(req.params['key']);

  router.use('/private', pageSecurity());

  router.get('/private/:key', async (req, res) => {
    const metadataKey = keyOf(req);
    try {
      const notice = req.query['burned'] === '1' ? wordsOf(res).text('receipt.burnedNotice') : undefined;
      const metadata = presentMetadata(await showMetadata(secrets, metadataKey, false));
      const { action, resource } = burn(metadataKey);
      const created = req.query['created'] === '1' && metadata.state === 'new';
      const user = await viewer(req);
      const csrf = forms.browser.issue(req, res, resource);
      res.send(receiptPage(pageFrame(res, { user }), metadata, { action, csrf }, { baseUrl: ctx.baseUrl, notice, created, script: ctx.script }));
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
      res.status(404).send(receiptNotFoundPage(pageFrame(res)));
    }
  });

  router.post('/private/:key/burn', ctx.limiter.byIp(), ...forms.read(BURN_FORM_CHARACTERS), async (req, res) => {
    const metadataKey = keyOf(req);
    forms.browser.check(req, burn(metadataKey).resource);
    try {
      await burnSecret(secrets, metadataKey);
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
    }
    // Post/Redirect/Get: the receipt shows the outcome (burned, or already read).
    res.redirect(303, `/private/${metadataKey}?burned=1`);
  });

  return router;
}

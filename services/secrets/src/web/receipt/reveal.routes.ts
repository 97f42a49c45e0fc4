import express, { type Request, type Response } from 'express';
import { formField, nonceOf, pageSecurity } from '@hush/common';
import { PassphraseIncorrectError, PassphraseRequiredError, SecretForAnotherAccountError, UnknownSecretError } from '../../errors.js';
import { hashKey, isKey } from '../../secrets/keys.js';
import { PASSPHRASE_MAX_LENGTH, revealInput } from '../../secrets/params.js';
import { revealSecret } from '../../secrets/reveal.js';
import type { PageContext, Viewer } from '../shared/index.js';
import { gonePage, notYoursPage, revealedPage, waitingPage } from './reveal.views.js';

/**
 * The page behind the secret link. GET never changes anything, so link unfurlers and mail
 * scanners that fetch the link consume nothing; the secret is revealed only by the POST the
 * person's button sends, which must carry the page's CSRF token (bound to the browser) and must
 * not come from another site. It goes through the same use-case as the API.
 * A secret only one account may read (the answer to its request) is offered to that account's
 * signed-in browser alone (`viewer`); anyone else is asked to sign in, and nothing is consumed.
 */
export function revealRoutes(ctx: Pick<PageContext, 'secrets' | 'forms' | 'limiter'>, viewer: Viewer): express.Router {
  const { secrets, forms } = ctx;
  const router = express.Router();
  const reveal = (secretKey: string) => ({ action: `/secret/${secretKey}`, resource: `reveal ${secretKey}` });
  const keyOf = (req: Request) => String(req.params['key']);

  router.use('/secret', pageSecurity());

  const waiting = (req: Request, res: Response, secretKey: string, passphraseRequired: boolean, error?: string) => {
    const { action, resource } = reveal(secretKey);
    return waitingPage({ action, csrf: forms.browser.issue(req, res, resource), passphraseRequired, error, nonce: nonceOf(res) });
  };

  const notYours = async (req: Request, res: Response, secretKey: string) => {
    const user = await viewer(req);
    res.status(403).send(notYoursPage({ signedInAs: user?.name, signIn: `/auth/sign-in?return=${encodeURIComponent(`/secret/${secretKey}`)}`, nonce: nonceOf(res) }));
  };

  router.get('/secret/:key', async (req, res) => {
    const secretKey = keyOf(req);
    const live = isKey(secretKey) ? await secrets.secrets.peek(hashKey(secretKey)) : undefined;
    if (live === undefined) {
      res.status(404).send(gonePage(nonceOf(res)));
      return;
    }
    if (live.reader !== null && (await viewer(req))?.name !== live.reader) {
      await notYours(req, res, secretKey);
      return;
    }
    res.send(waiting(req, res, secretKey, live.passphraseRequired));
  });

  router.post('/secret/:key', ctx.limiter.byIp(), ...forms.read(PASSPHRASE_MAX_LENGTH), async (req, res) => {
    const secretKey = keyOf(req);
    forms.browser.check(req, reveal(secretKey).resource);
    const passphrase = formField(req, 'passphrase') || undefined;
    try {
      const reader = (await viewer(req))?.name;
      const { value } = await revealSecret(secrets, secretKey, revealInput.parse(passphrase === undefined ? {} : { passphrase }), reader);
      res.send(revealedPage(value, nonceOf(res)));
    } catch (err) {
      if (err instanceof PassphraseIncorrectError || err instanceof PassphraseRequiredError) {
        res.status(401).send(waiting(req, res, secretKey, true, err.message));
        return;
      }
      if (err instanceof SecretForAnotherAccountError) {
        await notYours(req, res, secretKey);
        return;
      }
      if (err instanceof UnknownSecretError) {
        res.status(404).send(gonePage(nonceOf(res)));
        return;
      }
      throw err;
    }
  });

  return router;
}

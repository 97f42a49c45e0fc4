import express, { type NextFunction, type Request, type Response } from 'express';
import { createCsrf, formField, formGuard, nonceOf, pageSecurity, reportUnavailable, sameOrigin, sendErrorPage, toDomainError, type Logger } from '@hush/common';
import { PassphraseIncorrectError, PassphraseRequiredError, UnknownSecretError } from '../errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { hashKey, isKey } from '../secrets/keys.js';
import { burnSecret, showMetadata } from '../secrets/metadata.js';
import { revealInput } from '../secrets/params.js';
import { presentMetadata } from '../secrets/presenter.js';
import { revealSecret } from '../secrets/reveal.js';
import type { Chrome } from '../web/views.js';
import { gonePage, receiptNotFoundPage, receiptPage, revealedPage, waitingPage } from './views.js';

/** Who is signed in to the web app in this browser, if anyone (for its navigation on the receipt). */
export type Viewer = (req: Request) => Promise<Chrome['user'] | undefined>;

const FORM_LIMIT = '16kb';

/**
 * The pages behind the links. GET never changes anything, so link unfurlers and mail scanners
 * that fetch the link consume nothing; the secret is revealed only by the POST the person's
 * button sends, which must carry the page's CSRF token and must not come from another site. Both
 * go through the same use-cases as the API.
 */
export function pageRoutes(deps: SecretsDeps, limiter: RateLimiter, logger: Logger, csrfKey: Buffer, viewer: Viewer = () => Promise.resolve(undefined)): express.Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 1000 });
  const guard = formGuard(createCsrf(csrfKey));
  const fromHere = sameOrigin([new URL(deps.settings.baseUrl).origin]);
  const key = (req: Request) => String(req.params['key']);
  const reveal = (secretKey: string) => ({ action: `/secret/${secretKey}`, resource: `reveal ${secretKey}` });
  const burn = (metadataKey: string) => ({ action: `/private/${metadataKey}/burn`, resource: `burn ${metadataKey}` });

  router.use(['/secret', '/private'], pageSecurity());

  const waiting = (req: Request, res: Response, secretKey: string, passphraseRequired: boolean, error?: string) => {
    const { action, resource } = reveal(secretKey);
    return waitingPage({ action, csrf: guard.issue(req, res, resource), passphraseRequired, error, nonce: nonceOf(res) });
  };

  router.get('/secret/:key', async (req, res) => {
    const secretKey = key(req);
    const needs = isKey(secretKey) ? await deps.secrets.needsPassphrase(hashKey(secretKey)) : undefined;
    if (needs === undefined) {
      res.status(404).send(gonePage(nonceOf(res)));
      return;
    }
    res.send(waiting(req, res, secretKey, needs));
  });

  router.post('/secret/:key', limiter.byIp(), fromHere, form, async (req, res) => {
    const secretKey = key(req);
    guard.check(req, reveal(secretKey).resource);
    const passphrase = formField(req, 'passphrase') || undefined;
    try {
      const { value } = await revealSecret(deps, secretKey, revealInput.parse(passphrase === undefined ? {} : { passphrase }));
      res.send(revealedPage(value, nonceOf(res)));
    } catch (err) {
      if (err instanceof PassphraseIncorrectError || err instanceof PassphraseRequiredError) {
        res.status(401).send(waiting(req, res, secretKey, true, err.message));
        return;
      }
      if (err instanceof UnknownSecretError) {
        res.status(404).send(gonePage(nonceOf(res)));
        return;
      }
      throw err;
    }
  });

  router.get('/private/:key', async (req, res) => {
    const metadataKey = key(req);
    try {
      const notice = req.query['burned'] === '1' ? 'The secret was burned: nobody can view it now.' : undefined;
      const metadata = presentMetadata(await showMetadata(deps, metadataKey, false));
      const { action, resource } = burn(metadataKey);
      const created = req.query['created'] === '1' && metadata.state === 'new';
      // Signed in or not: the receipt needs no session, but a signed-in creator keeps the navigation.
      const user = await viewer(req);
      res.send(receiptPage(metadata, { action, csrf: guard.issue(req, res, resource) }, nonceOf(res), { baseUrl: deps.settings.baseUrl, notice, created, user }));
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
      res.status(404).send(receiptNotFoundPage(nonceOf(res)));
    }
  });

  router.post('/private/:key/burn', limiter.byIp(), fromHere, form, async (req, res) => {
    const metadataKey = key(req);
    guard.check(req, burn(metadataKey).resource);
    try {
      await burnSecret(deps, metadataKey);
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
    }
    // Post/Redirect/Get: the receipt shows the outcome (burned, or already read).
    res.redirect(303, `/private/${metadataKey}?burned=1`);
  });

  router.use(['/secret', '/private'], (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = toDomainError(err, '16 kB');
    if (!known) logger.error({ err }, 'page failed');
    else reportUnavailable(logger, known);
    sendErrorPage(req, res, known ?? { status: 500, message: 'Please try again later.' });
  });
  return router;
}

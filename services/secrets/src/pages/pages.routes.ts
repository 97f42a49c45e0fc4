import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { escapeHtml, type Logger } from '@hush/common';
import { ApiError, PassphraseIncorrectError, PassphraseRequiredError, UnknownSecretError } from '../errors.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { hashKey, isKey } from '../secrets/keys.js';
import { burnSecret, showMetadata } from '../secrets/metadata.js';
import { revealSecret } from '../secrets/reveal.js';
import { gonePage, page, receiptPage, revealedPage, waitingPage } from './views.js';

/**
 * The pages behind the links. GET never changes anything, so link unfurlers and mail
 * scanners that fetch the link consume nothing; the secret is revealed only by the POST the
 * person's button sends. Both go through the same use-cases as the API.
 */
export function pageRoutes(deps: SecretsDeps, limiter: RateLimiter, logger: Logger): express.Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.use(['/secret', '/private'], (_req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals['nonce'] = nonce;
    res.set({
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    res.type('html');
    next();
  });
  const nonce = (res: Response) => res.locals['nonce'] as string;
  const key = (req: Request) => String(req.params['key']);

  router.get('/secret/:key', async (req, res) => {
    const secretKey = key(req);
    const needs = isKey(secretKey) ? await deps.secrets.needsPassphrase(hashKey(secretKey)) : undefined;
    if (needs === undefined) {
      res.status(404).send(gonePage(nonce(res)));
      return;
    }
    res.send(waitingPage({ action: `/secret/${secretKey}`, passphraseRequired: needs, nonce: nonce(res) }));
  });

  router.post('/secret/:key', limiter.byIp(), form, async (req, res) => {
    const secretKey = key(req);
    const passphrase = typeof req.body?.passphrase === 'string' && req.body.passphrase !== '' ? req.body.passphrase : undefined;
    try {
      const { value } = await revealSecret(deps, secretKey, passphrase === undefined ? {} : { passphrase });
      res.send(revealedPage(value, nonce(res)));
    } catch (err) {
      if (err instanceof PassphraseIncorrectError || err instanceof PassphraseRequiredError) {
        res.status(401).send(waitingPage({ action: `/secret/${secretKey}`, passphraseRequired: true, error: err.message, nonce: nonce(res) }));
        return;
      }
      if (err instanceof UnknownSecretError) {
        res.status(404).send(gonePage(nonce(res)));
        return;
      }
      throw err;
    }
  });

  router.get('/private/:key', async (req, res) => {
    try {
      const notice = req.query['burned'] === '1' ? 'The secret was burned: nobody can view it now.' : undefined;
      res.send(receiptPage(await showMetadata(deps, key(req), false), `/private/${key(req)}/burn`, nonce(res), notice));
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
      res.status(404).send(page('Receipt not found', '<h1>Receipt not found</h1><p>It has expired or the address is wrong.</p>', nonce(res)));
    }
  });

  router.post('/private/:key/burn', limiter.byIp(), async (req, res) => {
    try {
      await burnSecret(deps, key(req));
    } catch (err) {
      if (!(err instanceof UnknownSecretError)) throw err;
    }
    // Post/Redirect/Get: the receipt shows the outcome (burned, or already read).
    res.redirect(303, `/private/${key(req)}?burned=1`);
  });

  router.use(['/secret', '/private'], (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = err instanceof ApiError ? err.status : 500;
    if (status >= 500) logger.error({ err }, 'page failed');
    if (err instanceof ApiError) res.set(err.headers);
    res
      .status(status)
      .send(page('Error', `<h1>Something went wrong</h1><p class="error" role="alert">${escapeHtml(status >= 500 ? 'Please try again later.' : (err as Error).message)}</p>`, nonce(res)));
  });
  return router;
}

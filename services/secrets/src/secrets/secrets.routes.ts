import express, { type Request, type Response } from 'express';
import { principalOf, type Authenticator } from '../auth/authenticate.js';
import { SCOPES, type Scope } from '../auth/principal.js';
import { collectParams } from '../http/params.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from './deps.js';
import { burnSecret, recentMetadata, showMetadata } from './metadata.js';
import { secretsInputs } from './params.js';
import { revealSecret } from './reveal.js';
import { generateSecret, shareSecret } from './share.js';

/**
 * The six operations of spec 4.2 under /api/v1, plus Onetime Secret v1's aliases
 * (`/create`, `/metadata/...`, and the current `/receipt/...`) so its existing clients work unchanged.
 */
export function secretsRoutes(deps: SecretsDeps, auth: Authenticator, limiter: RateLimiter): express.Router {
  const router = express.Router();
  const write = [auth.require(SCOPES.write), limiter.byAccount()];
  const read = [auth.require(SCOPES.read), limiter.byAccount()];
  // Metadata and burn: the metadata key in the path is the capability (as in Onetime Secret, whose
  // clients call them without credentials). Credentials, when sent, must be valid and hold the scope.
  const byKey = (scope: Scope) => [auth.optional(scope), limiter.byAccountOrIp()];
  const key = (req: Request) => String(req.params['key']);
  const input = secretsInputs(deps.settings.ttl);

  const share = async (req: Request, res: Response) => {
    res.json(await shareSecret(deps, principalOf(res), input.share.parse(collectParams(req))));
  };
  router.post('/share', ...write, share);
  router.post('/create', ...write, share);

  router.post('/generate', ...write, async (req, res) => {
    res.json(await generateSecret(deps, principalOf(res), input.generate.parse(collectParams(req))));
  });

  router.post('/secret/:key', limiter.byIp(), async (req, res) => {
    res.json(await revealSecret(deps, key(req), input.reveal.parse(collectParams(req))));
  });

  for (const base of ['/private', '/metadata', '/receipt']) {
    router.get(`${base}/recent`, ...read, async (req, res) => {
      const { items, next } = await recentMetadata(deps, principalOf(res), input.recent.parse(collectParams(req)));
      if (next) {
        const url = new URL(req.originalUrl, 'http://x');
        url.searchParams.set('before', next);
        res.set({ 'X-Next-Cursor': next, Link: `<${url.pathname}${url.search}>; rel="next"` });
      }
      res.json(items);
    });
    router.get(`${base}/:key`, ...byKey(SCOPES.read), async (req, res) => {
      res.json(await showMetadata(deps, key(req), false));
    });
    router.post(`${base}/:key`, ...byKey(SCOPES.read), async (req, res) => {
      res.json(await showMetadata(deps, key(req), true));
    });
    router.post(`${base}/:key/burn`, ...byKey(SCOPES.write), async (req, res) => {
      res.json(await burnSecret(deps, key(req)));
    });
  }
  return router;
}

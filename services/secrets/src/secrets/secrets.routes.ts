import express, { type NextFunction, type Request, type Response } from 'express';
import { principalOf, type Authenticator } from '../auth/authenticate.js';
import { anonymousPrincipal, isAnonymous, SCOPES, type Scope } from '../auth/principal.js';
import { collectParams } from '../http/params.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from './deps.js';
import { setSubjectKey, type ApiDialect } from './dialect.js';
import { burnSecret, recentMetadata, showMetadata } from './metadata.js';
import { revealInput } from './params.js';
import { revealSecret } from './reveal.js';
import { generateSecret, shareSecret } from './share.js';

export interface SecretsRoutesOptions {
  dialect: ApiDialect;
  /** RATE_LIMIT_*: per account, or per IP where there is none. */
  limiter: RateLimiter;
  /** ANONYMOUS_SHARES: share and generate without credentials, limited per IP by `anonymousLimiter`. */
  anonymousShares: boolean;
  anonymousLimiter: RateLimiter;
}

/**
 * The six operations of spec 4.2 under /api/v1, plus Onetime Secret v1's aliases
 * (`/create`, `/metadata/...`, the current `/receipt/...`, POST for recent) and its `/status` and
 * `/authcheck`, so its existing clients work unchanged. Credentials, wherever they are sent, must
 * be valid (Onetime Secret refuses wrong ones even where none are needed).
 */
export function secretsRoutes(deps: SecretsDeps, auth: Authenticator, options: SecretsRoutesOptions): express.Router {
  const { dialect, limiter, anonymousLimiter } = options;
  const router = express.Router();
  const read = [auth.require(SCOPES.read), limiter.byAccount()];
  // Metadata and burn: the metadata key in the path is the capability (as in Onetime Secret, whose
  // clients call them without credentials). Credentials, when sent, must be valid and hold the scope.
  const byKey = (scope: Scope) => [auth.optional(scope), limiter.byAccountOrIp()];
  const key = (req: Request, res: Response) => {
    const value = String(req.params['key']);
    setSubjectKey(res, value);
    return value;
  };
  const inputs = dialect.inputs;

  const nominal = (_req: Request, res: Response) => {
    res.json({ status: 'nominal', locale: 'en' });
  };
  router.get('/status', auth.optional(), nominal);
  router.get('/authcheck', auth.require(), nominal);

  // Share and generate: an account with secrets:write, or (ANONYMOUS_SHARES) nobody, limited per IP.
  const accountLimit = limiter.byAccount();
  const anonymousLimit = anonymousLimiter.byIp();
  const creator = options.anonymousShares
    ? [
        auth.optional(SCOPES.write),
        (req: Request, res: Response, next: NextFunction) => {
          if (res.locals['principal'] === undefined) res.locals['principal'] = anonymousPrincipal();
          return isAnonymous(principalOf(res)) ? anonymousLimit(req, res, next) : accountLimit(req, res, next);
        },
      ]
    : [auth.require(SCOPES.write), accountLimit];

  const share = async (req: Request, res: Response) => {
    res.json(dialect.created(await shareSecret(deps, principalOf(res), inputs.share.parse(collectParams(req)))));
  };
  router.post('/share', ...creator, share);
  router.post('/create', ...creator, share);

  router.post('/generate', ...creator, async (req, res) => {
    const input = inputs.generate.parse(collectParams(req));
    res.json(dialect.created(await generateSecret(deps, principalOf(res), input, { markViewed: dialect.generateMarksViewed })));
  });

  router.post('/secret/:key', auth.optional(), limiter.byIp(), async (req, res) => {
    const secretKey = key(req, res);
    res.json(await revealSecret(deps, secretKey, inputs.reveal.parse(collectParams(req))));
  });

  const recent = async (req: Request, res: Response) => {
    const { items, next } = await recentMetadata(deps, principalOf(res), inputs.recent.parse(collectParams(req)));
    if (next) {
      const url = new URL(req.originalUrl, 'http://x');
      url.searchParams.set('before', next);
      res.set({ 'X-Next-Cursor': next, Link: `<${url.pathname}${url.search}>; rel="next"` });
    }
    res.json(items.map((item) => dialect.recentItem(item)));
  };
  // GET and POST of metadata alike record that the creator looked (Onetime Secret's `viewed`).
  const show = async (req: Request, res: Response) => {
    res.json(dialect.metadata(await showMetadata(deps, key(req, res), true)));
  };
  for (const base of ['/private', '/metadata', '/receipt']) {
    router.get(`${base}/recent`, ...read, recent);
    router.post(`${base}/recent`, ...read, recent);
    router.get(`${base}/:key`, ...byKey(SCOPES.read), show);
    router.post(`${base}/:key`, ...byKey(SCOPES.read), show);
    router.post(`${base}/:key/burn`, ...byKey(SCOPES.write), async (req, res) => {
      const metadataKey = key(req, res);
      const passphrase = dialect.burnChecksPassphrase ? revealInput.parse(collectParams(req)).passphrase : undefined;
      res.json(dialect.burn(await burnSecret(deps, metadataKey, { checkPassphrase: dialect.burnChecksPassphrase, passphrase })));
    });
  }
  return router;
}

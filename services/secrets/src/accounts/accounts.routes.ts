import express from 'express';
import { principalOf, type Authenticator } from '../auth/authenticate.js';
import { SCOPES } from '../auth/principal.js';
import { UnknownTokenError } from '../errors.js';
import { collectParams } from '../http/params.js';
import { mintTokenInput } from './api-tokens.schemas.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { listApiTokens, mintApiToken, revokeApiToken, type AccountsDeps } from './accounts.js';

/**
 * API tokens for people: a user signs in through identity (authorization code flow), and with
 * that access token (both scopes) mints, lists and revokes the Basic-auth tokens of their account.
 */
export function accountRoutes(accounts: AccountsDeps, auth: Authenticator, limiter: RateLimiter): express.Router {
  const router = express.Router();
  const user = [auth.requireUser(SCOPES.read, SCOPES.write), limiter.byAccount()];

  router.post('/account/api-token', ...user, async (req, res) => {
    const { label } = mintTokenInput.parse(collectParams(req));
    res.status(201).json(await mintApiToken(accounts, principalOf(res).custid, label));
  });

  router.get('/account/api-tokens', ...user, async (_req, res) => {
    const tokens = await listApiTokens(accounts, principalOf(res).custid);
    res.json(tokens.map((t) => ({ id: t.id, label: t.label, created: Math.floor(t.createdAt.getTime() / 1000), revoked: t.revokedAt !== null })));
  });

  router.delete('/account/api-token/:id', ...user, async (req, res) => {
    const id = String(req.params['id']);
    if (!(await revokeApiToken(accounts, id, principalOf(res).custid))) throw new UnknownTokenError();
    res.json({ id, revoked: true });
  });
  return router;
}

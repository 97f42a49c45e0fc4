import express, { type Response } from 'express';
import { formField } from '@hush/common';
import { listApiTokens, mintApiToken, revokeApiToken, type AccountsDeps } from '../../accounts/accounts.js';
import { wordsOf, type PageContext, type PageSessions } from '../shared/index.js';
import { tokensPage } from './api-tokens.views.js';
import { apiPathOf } from '../../http/api.routes.js';

export type TokenAccounts = Pick<AccountsDeps, 'accounts' | 'tokens' | 'tokenCache' | 'defaultPlan'>;

const unixOf = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * API tokens: the signed-in account's tokens for HTTP Basic (scripts, Onetime Secret clients),
 * minted here and shown once with a curl line to try, and revoked here.
 */
export function apiTokenRoutes(ctx: Pick<PageContext, 'baseUrl' | 'limiter'>, accounts: TokenAccounts, sessions: PageSessions): express.Router {
  const router = express.Router();

  const tokenList = async (custid: string) =>
    (await listApiTokens(accounts, custid))
      .filter((t) => t.revokedAt === null)
      .map((t) => ({ id: t.id, label: t.label, created: unixOf(t.createdAt), lastUsed: t.lastUsedAt ? unixOf(t.lastUsedAt) : 0 }));

  const renderTokens = async (res: Response, extra: { minted?: { token: string; curl: string }; notice?: string | undefined; error?: string } = {}) => {
    const s = sessions.sessionOf(res);
    res.send(
      tokensPage(sessions.chrome(res, 'tokens'), {
        tokens: await tokenList(s.custid),
        createCsrf: sessions.csrfToken(s, 'tokens'),
        revokeCsrf: sessions.csrfToken(s, 'revoke'),
        ...extra,
      }),
    );
  };

  router.get('/tokens', sessions.signedIn, async (req, res) => {
    await renderTokens(res, { notice: req.query['revoked'] === '1' ? wordsOf(res).text('tokens.revoked') : undefined });
  });

  router.post('/tokens', ...sessions.post('tokens'), ctx.limiter.byAccount(), async (req, res) => {
    const custid = sessions.sessionOf(res).custid;
    const label = (formField(req, 'label') ?? '').trim();
    if (!label) {
      res.status(400);
      await renderTokens(res, { error: wordsOf(res).text('tokens.labelMissing') });
      return;
    }
    const minted = await mintApiToken(accounts, custid, label);
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const curl = `curl -u ${quote(`${custid}:${minted.api_token}`)} ${ctx.baseUrl}${apiPathOf('share')} -d secret='hello from curl'`;
    await renderTokens(res, { minted: { token: minted.api_token, curl } });
  });

  router.post('/tokens/revoke', ...sessions.post('revoke'), async (req, res) => {
    await revokeApiToken(accounts, formField(req, 'id') ?? '', sessions.sessionOf(res).custid);
    res.redirect(303, '/tokens?revoked=1');
  });

  return router;
}

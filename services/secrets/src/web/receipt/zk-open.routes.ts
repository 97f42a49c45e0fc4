import express from 'express';
import { apiSecurity, formField } from '@hush/common';
import { apiPathOf } from '../../http/api.routes.js';
import { presentZkRead, readZk, zkReadInput } from '../../zk/index.js';
import type { PageContext, Viewer } from '../shared/index.js';
import { sendRefusal } from '../zk/index.js';

/** The proofs (two base64url digests) and a six-digit code. */
const OPEN_FORM_CHARACTERS = 160;

/**
 * The reveal page's zero-knowledge read (docs/zero-knowledge.md §8), called by its script with the
 * page's CSRF token: the proofs of the link's key and passphrase (never the key or passphrase),
 * and a recipient's one-time code; the reader is the browser's signed-in account, if any. It
 * answers the envelope (the secret is gone) and the file's download, as POST /api/v1/zk/secret/:key
 * does, through the same use-case: a wrong key changes nothing, wrong passphrases are counted.
 */
export function zkOpenRoutes(ctx: Pick<PageContext, 'zk' | 'forms' | 'limiter'>, viewer: Viewer, resourceOf: (secretKey: string) => string): express.Router {
  const router = express.Router();
  const download = apiPathOf('zkDownload');
  router.post('/secret/:key/open', apiSecurity(), ctx.limiter.byIp(), ...ctx.forms.read(OPEN_FORM_CHARACTERS), async (req, res) => {
    const secretKey = String(req.params['key']);
    try {
      ctx.forms.browser.check(req, resourceOf(secretKey));
      const user = await viewer(req);
      const input = zkReadInput.parse({ key_proof: formField(req, 'key_proof'), passphrase_proof: formField(req, 'passphrase_proof') });
      const code = formField(req, 'code')?.replace(/\s+/g, '') || undefined;
      const read = await readZk(ctx.zk, secretKey, input, { custid: user?.name, email: user?.email, code });
      res.json(presentZkRead(read, (token) => download.replace(':token', token)));
    } catch (err) {
      sendRefusal(res, err);
    }
  });
  return router;
}

import express, { type Request } from 'express';
import { apiSecurity, formField, sameOrigin } from '@hush/common';
import { PLANS } from '../../accounts/plans.js';
import { envelopeLimit, presentUpload, shareZk, uploadFile, zkShareParser } from '../../zk/index.js';
import { wordsOf, type PageContext, type PageSessions } from '../shared/index.js';
import { sendRefusal } from '../zk/index.js';
import { shareFormOptions, SHORT_FIELDS_CHARACTERS, type ShareAccess } from './share-access.js';

/** The header the script sends the share form's CSRF token in when the body is a file (a cross-site form cannot set it). */
const CSRF_HEADER = 'x-hush-csrf';

/**
 * The share page's zero-knowledge calls (docs/zero-knowledge.md §8), made by its script with the
 * form's CSRF token, as the same caller as the form: `POST /share/zk` (the envelope, verifiers
 * and the form's options: never the secret, the passphrase or the key) and `POST /share/zk/file` (a
 * file's encrypted records, streamed; accounts only). They answer JSON for the script, through
 * the same use-cases as the API's /zk routes.
 */
export function zkShareRoutes(ctx: PageContext, sessions: PageSessions, access: ShareAccess): express.Router {
  const { forms, zk } = ctx;
  const router = express.Router();
  const parser = zkShareParser(zk.settings.ttl);
  // The largest envelope any plan takes, in base64url, and the form's other fields.
  const longest = Math.max(...Object.values(PLANS).map((p) => p.maxSecretLength), zk.settings.anonymousMaxSecretLength);
  const readForm = forms.read(Math.ceil((envelopeLimit(longest) * 4) / 3) + SHORT_FIELDS_CHARACTERS);
  const origin = sameOrigin([new URL(ctx.baseUrl).origin]);
  const json = apiSecurity();

  router.post('/share/zk', json, ...readForm, access.sharer, access.limit, async (req, res) => {
    try {
      access.checkCsrf(req, res);
      const principal = sessions.principalOf(res);
      const input = parser.parse({
        envelope: formField(req, 'envelope'),
        key_verifier: formField(req, 'key_verifier'),
        passphrase_verifier: formField(req, 'passphrase_verifier'),
        file: formField(req, 'file'),
        ...shareFormOptions(req, principal, wordsOf(res).locale),
      });
      const created = await shareZk(zk, principal, input);
      res.json({ metadata_key: created.metadataKey, secret_key: created.secretKey });
    } catch (err) {
      sendRefusal(res, err);
    }
  });

  router.post('/share/zk/file', json, origin, sessions.signedIn, access.limit, async (req: Request, res) => {
    try {
      const csrf = req.headers[CSRF_HEADER];
      access.checkCsrf({ body: { csrf: typeof csrf === 'string' ? csrf : undefined } }, res);
      res.status(201).json(presentUpload(await uploadFile(zk, sessions.principalOf(res), req)));
    } catch (err) {
      sendRefusal(res, err);
    }
  });

  return router;
}

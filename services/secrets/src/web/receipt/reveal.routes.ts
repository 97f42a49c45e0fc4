import express, { type Request, type Response } from 'express';
import { formField, pageSecurity } from '@hush/common';
import { obfuscateEmail, type HandoverLabel } from '@hush/queue';
import {
  CodeUnavailableError,
  InvalidCodeError,
  PassphraseIncorrectError,
  PassphraseRequiredError,
  SecretForAnotherAccountError,
  SecretForRecipientError,
  UnknownSecretError,
} from '../../errors.js';
import { hashKey, isKey } from '../../secrets/keys.js';
import { PASSPHRASE_MAX_LENGTH, revealInput } from '../../http/secrets-params.js';
import { sendRecipientCode } from '../../secrets/recipient-code.js';
import { REFUSED_NOTICE_INTERVAL_SECONDS, revealSecret, sameAddress } from '../../secrets/reveal.js';
import type { LiveSecret } from '../../secrets/secrets.repository.js';
import { formErrorText, pageFrame, wordsOf, type PageContext, type Viewer } from '../shared/index.js';
import { linkPage } from '../zk/index.js';
import { zkSecretInfo } from '../../zk/index.js';
import { codePage, gonePage, notYoursPage, recipientPage, revealedPage, waitingPage, type ZkReveal } from './reveal.views.js';
import { zkOpenRoutes } from './zk-open.routes.js';

/** A reveal form holds a passphrase and, for a recipient-only secret, a six-digit code (within the form's overhead). */
const REVEAL_FORM_CHARACTERS = PASSPHRASE_MAX_LENGTH;

/**
 * The page behind the secret link. GET never changes anything, so link unfurlers and mail
 * scanners that fetch the link consume nothing; the secret is revealed only by the POST the
 * person's button sends, which must carry the page's CSRF token (bound to the browser) and must
 * not come from another site. It goes through the same use-case as the API.
 * A secret only one account may read (the answer to its request) is offered to that account's
 * signed-in browser alone (`viewer`); anyone else is asked to sign in, and nothing is consumed.
 * A recipient-only secret is offered to a browser signed in with the recipient's verified address,
 * or to whoever types the one-time code sent to that address (POST /secret/<key>/code asks for
 * one); the page says who it is for (obfuscated) and asks everyone else to sign in or ask for a
 * code. A signed-in account that is not the recipient is a refused opening (counted, and told
 * to the creator at most once per REFUSED_NOTICE_INTERVAL_SECONDS); a signed-out visit is not.
 */
export function revealRoutes(ctx: Pick<PageContext, 'secrets' | 'zk' | 'script' | 'forms' | 'limiter'>, viewer: Viewer): express.Router {
  const { secrets, forms } = ctx;
  const router = express.Router();
  const reveal = (secretKey: string) => ({ action: `/secret/${secretKey}`, resource: `reveal ${secretKey}` });
  const keyOf = (req: Request) => String(req.params['key']);

  router.use('/secret', pageSecurity());

  /**
   * A zero-knowledge secret is opened by the page's script (reveal.views' ZkReveal): its page
   * may fetch from this origin, and gets the wrapped key of a request's answer.
   */
  const zkOf = async (req: Request, res: Response, secretKey: string, live: { zeroKnowledge: boolean }): Promise<ZkReveal | undefined> => {
    if (!live.zeroKnowledge) return undefined;
    linkPage(req, res);
    const info = await zkSecretInfo(ctx.zk, secretKey);
    return { open: `/secret/${secretKey}/open`, script: ctx.script, wrappedKey: info.wrappedKey?.toString('base64url') };
  };

  /** What a handed-over credential is (its label sealed with the secret), for its pages to name it. */
  const handoverOf = (secretKey: string, live: Pick<LiveSecret, 'handoverSealed'> | undefined): HandoverLabel | undefined =>
    live?.handoverSealed ? secrets.crypto.openHandover(secretKey, hashKey(secretKey), live.handoverSealed) : undefined;

  const waiting = (
    req: Request,
    res: Response,
    secretKey: string,
    o: { passphraseRequired: boolean; error?: string; zk?: ZkReveal | undefined; handover: HandoverLabel | undefined },
  ) => {
    const { action, resource } = reveal(secretKey);
    return waitingPage(pageFrame(res), { action, csrf: forms.browser.issue(req, res, resource), ...o });
  };

  const notYours = async (req: Request, res: Response, secretKey: string) => {
    const user = await viewer(req);
    res.status(403).send(notYoursPage(pageFrame(res), { signedInAs: user?.name, signIn: signInUrl(secretKey) }));
  };

  const signInUrl = (secretKey: string) => `/auth/sign-in?return=${encodeURIComponent(`/secret/${secretKey}`)}`;

  /** For a recipient-only secret: who it is for (obfuscated), and whether the signed-in viewer is that person. */
  const recipientOf = async (req: Request, secretKey: string, live: LiveSecret & { recipientSealed: Buffer }) => {
    const address = secrets.crypto.openRecipient(secretKey, hashKey(secretKey), live.recipientSealed);
    const user = await viewer(req);
    return { shown: obfuscateEmail(address), user, isRecipient: user?.email !== undefined && sameAddress(user.email, address) };
  };

  const forRecipient = (req: Request, res: Response, secretKey: string, o: { shown: string; signedInAs: string | undefined; notice?: string; zk: boolean }) => {
    const { resource } = reveal(secretKey);
    return recipientPage(pageFrame(res), {
      zk: o.zk ? { script: ctx.script } : undefined,
      recipient: o.shown,
      signedInAs: o.signedInAs,
      signIn: signInUrl(secretKey),
      codeAction: `/secret/${secretKey}/code`,
      csrf: forms.browser.issue(req, res, resource),
      notice: o.notice,
    });
  };

  const codeForm = (
    req: Request,
    res: Response,
    secretKey: string,
    o: { to: string; passphraseRequired: boolean; error?: string; notice?: string; zk?: ZkReveal | undefined; handover: HandoverLabel | undefined },
  ) => {
    const { action, resource } = reveal(secretKey);
    return codePage(pageFrame(res), { action, codeAction: `/secret/${secretKey}/code`, csrf: forms.browser.issue(req, res, resource), ...o });
  };

  router.get('/secret/:key', async (req, res) => {
    const secretKey = keyOf(req);
    const live = isKey(secretKey) ? await secrets.secrets.peek(hashKey(secretKey)) : undefined;
    if (live === undefined) {
      res.status(404).send(gonePage(pageFrame(res)));
      return;
    }
    if (live.recipientSealed !== null) {
      const r = await recipientOf(req, secretKey, { ...live, recipientSealed: live.recipientSealed });
      if (r.isRecipient) {
        res.send(waiting(req, res, secretKey, { passphraseRequired: live.passphraseRequired, zk: await zkOf(req, res, secretKey, live), handover: handoverOf(secretKey, live) }));
        return;
      }
      // Someone signed in who is not the recipient: a refused opening. A signed-out visit (the
      // recipient before signing in, or a scanner) is not counted.
      if (r.user) await secrets.secrets.refused(hashKey(secretKey), REFUSED_NOTICE_INTERVAL_SECONDS);
      res.status(r.user ? 403 : 200).send(forRecipient(req, res, secretKey, { shown: r.shown, signedInAs: r.user?.name, zk: live.zeroKnowledge }));
      return;
    }
    if (live.reader !== null && (await viewer(req))?.name !== live.reader) {
      await notYours(req, res, secretKey);
      return;
    }
    res.send(waiting(req, res, secretKey, { passphraseRequired: live.passphraseRequired, zk: await zkOf(req, res, secretKey, live), handover: handoverOf(secretKey, live) }));
  });

  // Asks for a one-time code for a recipient-only secret: e-mailed to its recipient; nothing is consumed.
  router.post('/secret/:key/code', ctx.limiter.byIp(), ...forms.read(0), async (req, res) => {
    const secretKey = keyOf(req);
    forms.browser.check(req, reveal(secretKey).resource);
    const live = isKey(secretKey) ? await secrets.secrets.peek(hashKey(secretKey)) : undefined;
    if (live?.recipientSealed == null) {
      res.status(404).send(gonePage(pageFrame(res)));
      return;
    }
    try {
      const { to } = await sendRecipientCode(secrets, secretKey, wordsOf(res).locale);
      const zk = await zkOf(req, res, secretKey, live);
      const notice = wordsOf(res).text('reveal.codeSent', { to });
      res.send(codeForm(req, res, secretKey, { to, passphraseRequired: live.passphraseRequired, notice, zk, handover: handoverOf(secretKey, live) }));
    } catch (err) {
      if (err instanceof CodeUnavailableError) {
        const shown = obfuscateEmail(secrets.crypto.openRecipient(secretKey, hashKey(secretKey), live.recipientSealed));
        const zk = await zkOf(req, res, secretKey, live);
        res.status(429).send(
          codeForm(req, res, secretKey, {
            to: shown,
            passphraseRequired: live.passphraseRequired,
            error: formErrorText(wordsOf(res), err),
            zk,
            handover: handoverOf(secretKey, live),
          }),
        );
        return;
      }
      if (err instanceof UnknownSecretError) {
        res.status(404).send(gonePage(pageFrame(res)));
        return;
      }
      throw err;
    }
  });

  router.post('/secret/:key', ctx.limiter.byIp(), ...forms.read(REVEAL_FORM_CHARACTERS), async (req, res) => {
    const secretKey = keyOf(req);
    forms.browser.check(req, reveal(secretKey).resource);
    const passphrase = formField(req, 'passphrase') || undefined;
    const code = formField(req, 'code')?.replace(/\s+/g, '') || undefined;
    // The label of a handed-over credential, read before the reveal deletes it with the secret.
    const handover = isKey(secretKey) ? handoverOf(secretKey, await secrets.secrets.peek(hashKey(secretKey))) : undefined;
    try {
      const user = await viewer(req);
      const { value } = await revealSecret(secrets, secretKey, revealInput.parse(passphrase === undefined ? {} : { passphrase }), {
        custid: user?.name,
        email: user?.email,
        code,
      });
      res.send(revealedPage(pageFrame(res), value, handover));
    } catch (err) {
      if (code !== undefined && (err instanceof InvalidCodeError || err instanceof PassphraseIncorrectError || err instanceof PassphraseRequiredError)) {
        const live = await secrets.secrets.peek(hashKey(secretKey));
        if (live?.recipientSealed) {
          const to = obfuscateEmail(secrets.crypto.openRecipient(secretKey, hashKey(secretKey), live.recipientSealed));
          res.status(401).send(codeForm(req, res, secretKey, { to, passphraseRequired: live.passphraseRequired, error: formErrorText(wordsOf(res), err), handover }));
          return;
        }
      }
      if (err instanceof PassphraseIncorrectError || err instanceof PassphraseRequiredError) {
        res.status(401).send(waiting(req, res, secretKey, { passphraseRequired: true, error: formErrorText(wordsOf(res), err), handover }));
        return;
      }
      if (err instanceof SecretForRecipientError) {
        const live = await secrets.secrets.peek(hashKey(secretKey));
        if (live?.recipientSealed) {
          const r = await recipientOf(req, secretKey, { ...live, recipientSealed: live.recipientSealed });
          res.status(403).send(forRecipient(req, res, secretKey, { shown: r.shown, signedInAs: r.user?.name, zk: live.zeroKnowledge }));
          return;
        }
      }
      if (err instanceof SecretForAnotherAccountError) {
        await notYours(req, res, secretKey);
        return;
      }
      if (err instanceof UnknownSecretError) {
        res.status(404).send(gonePage(pageFrame(res)));
        return;
      }
      throw err;
    }
  });

  router.use(zkOpenRoutes(ctx, viewer, (secretKey) => reveal(secretKey).resource));
  return router;
}

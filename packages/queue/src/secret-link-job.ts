import { open, seal } from '@hush/common/base';
import { z } from 'zod';
import { handoverLabel } from './handover-label.js';
import { mailLocale } from './mail-locale.js';

/** A recipient's link e-mail: what the mailer needs to send it; in the queue it travels sealed (sealed-job.ts). */
export const secretLinkJob = z.object({
  version: z.literal(1),
  /**
   * The outbox row id; also the BullMQ job id, so a relay retry or a re-queue of a lost job never
   * puts a second job for one delivery in the queue.
   */
  deliveryId: z.string().min(1).max(100),
  /** Recipient e-mail address. */
  to: z.email(),
  /** Who shares the secret (the creator's custid); named in the subject and body. */
  sender: z.string().min(1).max(200),
  /** `{BASE_URL}/secret/<secret_key>`: the page that reveals the secret once, after a click. */
  link: z.url(),
  passphraseRequired: z.boolean(),
  /** A recipient-only secret: only the addressee, signed in or with a code sent here, can read it. */
  recipientOnly: z.boolean().optional(),
  /**
   * A zero-knowledge secret (docs/zero-knowledge.md): the link lacks its key (the fragment), which
   * the secrets service never had; the sender hands it over apart.
   */
  keyApart: z.boolean().optional(),
  /**
   * The link's key (its fragment) sealed by identity for the mailer (sealLinkKey): the secrets
   * service, which queues the job, cannot open it; the mailer appends it to `link`.
   */
  keySealed: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .optional(),
  /** Unix seconds after which the link no longer works. */
  expiresAt: z.number().int(),
  /** A handed-over credential: what it is and who handed it over, named in the e-mail. */
  handover: handoverLabel.optional(),
  /** The e-mail's language (mail-locale.ts); absent: English. */
  locale: mailLocale,
});
export type SecretLinkJob = z.infer<typeof secretLinkJob>;

const LINK_KEY_AAD = 'hush:link-key:v1';

/** Seals a zero-knowledge link's key (its fragment) under LINK_KEY_SEALING_KEY, for the mailer only (base64url). */
export function sealLinkKey(key: Buffer, fragment: string): string {
  return seal(key, fragment, LINK_KEY_AAD).toString('base64url');
}

/** The link's key sealed by `sealLinkKey`; throws when `key` is not the one it was sealed under. */
export function openLinkKey(key: Buffer, sealed: string): string {
  return open(key, Buffer.from(sealed, 'base64url'), LINK_KEY_AAD).toString('utf8');
}

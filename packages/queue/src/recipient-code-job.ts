import { z } from 'zod';
import { mailLocale } from './mail-locale.js';

/**
 * The one-time code that lets the recipient of a recipient-only secret, who has no account, prove
 * control of the address the secret is for. It travels on the mail queue as its own job type
 * (`kind`), sealed like the others, and carries no link and nothing of the secret: the code alone
 * opens nothing without the link the recipient already holds.
 */
export const recipientCodeJob = z.object({
  version: z.literal(1),
  kind: z.literal('recipient-code'),
  deliveryId: z.string().min(1).max(100),
  to: z.email(),
  /** Who shared the secret (the creator's custid), so the recipient knows what the code is for. */
  sender: z.string().min(1).max(200),
  code: z.string().regex(/^[0-9]{6,10}$/),
  /** Unix seconds after which the code no longer works. */
  expiresAt: z.number().int(),
  /** The e-mail's language (mail-locale.ts); absent: English. */
  locale: mailLocale,
});
export type RecipientCodeJob = z.infer<typeof recipientCodeJob>;

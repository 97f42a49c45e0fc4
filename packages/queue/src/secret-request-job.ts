import { z } from 'zod';
import { mailLocale } from './mail-locale.js';

/**
 * The e-mail to the person a secret request names: who asks, for what (the request's label,
 * never a secret), and the request link, with which they send the one secret. It travels on the
 * mail queue as its own job type (`kind`), sealed like the others.
 */
export const secretRequestJob = z.object({
  version: z.literal(1),
  kind: z.literal('secret-request'),
  deliveryId: z.string().min(1).max(100),
  to: z.email(),
  /** The requester's custid, named in the subject and body. */
  requester: z.string().min(1).max(200),
  label: z.string().min(1).max(200),
  /** `{BASE_URL}/request/<request_key>`: the page that takes the secret, once. */
  link: z.url(),
  /** Unix seconds after which the link no longer takes a secret. */
  expiresAt: z.number().int(),
  /** The e-mail's language (mail-locale.ts); absent: English. */
  locale: mailLocale,
});
export type SecretRequestJob = z.infer<typeof secretRequestJob>;

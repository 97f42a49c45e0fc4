import { z } from 'zod';
import { mailLocale } from './mail-locale.js';

/** Keycloak's required actions an administrator can send a person to perform (execute-actions-email). */
export const ACCOUNT_ACTIONS = ['UPDATE_PASSWORD', 'CONFIGURE_TOTP', 'VERIFY_EMAIL'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/**
 * What the identity service mails a person about their own account, as job kinds of the mail queue:
 * - `reset-password`: the link of a "Forgot password?" request;
 * - `execute-actions`: an administrator asks the person to perform `actions` through the link;
 * - `verify-email`: a self-registered person confirms the address before the first sign-in.
 * The job carries the link (single use, short-lived) and never a password; in the queue it is
 * sealed like the other kinds (sealed-job.ts).
 */
export const accountLinkJob = z.object({
  version: z.literal(1),
  kind: z.enum(['reset-password', 'execute-actions', 'verify-email']),
  deliveryId: z.string().min(1).max(100),
  to: z.email(),
  /** The person's username, named in the e-mail so they can tell which account it is about. */
  username: z.string().min(1).max(200),
  link: z.url(),
  /** For `execute-actions`: what the link will ask for. */
  actions: z.array(z.enum(ACCOUNT_ACTIONS)).max(ACCOUNT_ACTIONS.length).optional(),
  /** Unix seconds after which the link no longer works. */
  expiresAt: z.number().int(),
  /** The e-mail's language (mail-locale.ts); absent: English. */
  locale: mailLocale,
});
export type AccountLinkJob = z.infer<typeof accountLinkJob>;

import { z } from 'zod';

/**
 * What a handed-over credential is, for its e-mail and reveal page to name it (never the
 * credential itself): a client's secret, a new account's first password or a reset password;
 * the client's name or the account's username (`name`), the client id (`id`), and who handed it
 * over (`by`, an administrator's name). Set by a service client (identity's handover), never by a
 * person's share.
 */
export const HANDOVER_KINDS = ['client_secret', 'first_password', 'password'] as const;
export type HandoverKind = (typeof HANDOVER_KINDS)[number];

/** Printable text on one line: a label is shown in a subject, a body and a page. */
const labelText = z
  .string()
  .trim()
  .min(1)
  .max(200)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/, { error: 'must be one line of printable text' });

export const handoverLabel = z.object({
  kind: z.enum(HANDOVER_KINDS),
  name: labelText,
  id: labelText.optional(),
  by: labelText.optional(),
});
export type HandoverLabel = z.infer<typeof handoverLabel>;

import { z } from 'zod';

/**
 * The language a mail job's e-mail is written in: a BCP 47 tag, as the producer's request had it
 * (a page's chosen language, an account's `locale` attribute). Optional: a job without one, or
 * with a language the mailer does not speak, is written in English. A tag rather than the list
 * of languages spoken today, so a producer that knows a newer language never makes an older
 * mailer refuse the job.
 */
export const mailLocale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/)
  .optional();

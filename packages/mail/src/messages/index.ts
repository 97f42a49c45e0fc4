import { localeOf, messageCatalogue, DEFAULT_LOCALE, type MessageKey, type Messages } from '@hush/common/i18n';
import { de } from './de.js';
import { en } from './en.js';

export const MAIL_CATALOGUES = { en, de };
export type MailKey = MessageKey<typeof en>;
export type MailMessages = Messages<MailKey>;

const catalogue = messageCatalogue(MAIL_CATALOGUES);

/** The e-mail messages in the job's language (`locale`, a BCP 47 tag), English when absent or unknown. */
export const mailMessages = (locale?: string): MailMessages => catalogue(localeOf(locale) ?? DEFAULT_LOCALE);

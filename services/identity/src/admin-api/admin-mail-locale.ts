import type { IncomingMessage } from 'node:http';
import { chooseMailLocale, type Locale, type MailLocaleHints } from '@hush/common/i18n';
import { mailHintsOf } from '../pages/index.js';
import type { UsersRepository } from '../users/index.js';

/**
 * What an admin API call says of the language of an e-mail it causes: its `ui_locales` and
 * `kc_locale` query parameters and its `Accept-Language`; never a cookie (an API call carries no
 * person's page choice). The recipient's `locale` attribute comes between (chooseMailLocale).
 */
export function adminMailHints(req: Pick<IncomingMessage, 'url' | 'headers'>): Omit<MailLocaleHints, 'accountLocale'> {
  return { ...mailHintsOf(req), cookie: undefined };
}

/**
 * The language of a handover's e-mail: as adminMailHints, with the `locale` attribute of the
 * account the recipient's address belongs to (if one does) between.
 */
export async function handoverLocale(deps: { users: Pick<UsersRepository, 'findByLogin'> }, req: Pick<IncomingMessage, 'url' | 'headers'>, recipient: string): Promise<Locale> {
  const account = await deps.users.findByLogin(recipient);
  return chooseMailLocale({ ...adminMailHints(req), accountLocale: account?.email?.toLowerCase() === recipient.toLowerCase() ? account.locale : undefined });
}

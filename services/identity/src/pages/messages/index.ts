import { messageCatalogue, type MessageKey, type Messages } from '@hush/common/i18n';
import { adminDe, adminEn } from '../../admin-console/index.js';
import { de as accountDe } from '../../account-console/messages/de.js';
import { en as accountEn } from '../../account-console/messages/en.js';
import { de as linksDe } from '../../account-links/messages/de.js';
import { en as linksEn } from '../../account-links/messages/en.js';
import { de } from './de.js';
import { en } from './en.js';

/**
 * The catalogues of identity's pages, one per language: the sign-in pages' and the frame's
 * (this folder), and each feature's own (its `messages/`), each under its own top-level key; the
 * admin console's under `admin`.
 */
export const PAGE_CATALOGUES = {
  en: { ...en, ...accountEn, ...linksEn, admin: adminEn },
  de: { ...de, ...accountDe, ...linksDe, admin: adminDe },
};
export type PageKey = MessageKey<(typeof PAGE_CATALOGUES)['en']>;
export type PageMessages = Messages<PageKey>;

/** The pages' messages in `locale`. */
export const pageMessages = messageCatalogue(PAGE_CATALOGUES);

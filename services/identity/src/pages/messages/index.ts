import { messageCatalogue, type MessageKey, type Messages } from '@hush/common/i18n';
import { adminDe, adminEn } from '../../admin-console/index.js';
import { de } from './de.js';
import { en } from './en.js';

/**
 * The catalogues of identity's pages, one per language: the sign-in pages' and the consoles' frame
 * (en.ts, de.ts) with the admin console's under `admin` (admin-console/messages/).
 */
export const PAGE_CATALOGUES = { en: { ...en, admin: adminEn }, de: { ...de, admin: adminDe } };
export type PageKey = MessageKey<(typeof PAGE_CATALOGUES)['en']>;
export type PageMessages = Messages<PageKey>;

/** The pages' messages in `locale`. */
export const pageMessages = messageCatalogue(PAGE_CATALOGUES);

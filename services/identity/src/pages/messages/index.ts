import { messageCatalogue, type MessageKey, type Messages } from '@hush/common/i18n';
import { de } from './de.js';
import { en } from './en.js';

/** The catalogues of identity's pages, one per language. */
export const PAGE_CATALOGUES = { en, de };
export type PageKey = MessageKey<typeof en>;
export type PageMessages = Messages<PageKey>;

/** The pages' messages in `locale`. */
export const pageMessages = messageCatalogue(PAGE_CATALOGUES);

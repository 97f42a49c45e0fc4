/**
 * Identity's page kit: what every server-rendered page shares (the login and e-mailed-link pages,
 * both consoles): one frame with the product's name (`identityPage`), the words of each
 * language (`messages/`), the page's language (`page-locale.ts`). The layout itself is
 * @hush/common's `layout`.
 */
export { csrfField } from './csrf-field.js';
export { consolePage, type ConsoleNavItem, type ConsolePageOptions } from './console-layout.js';
export { consolePageErrors, signInPageErrors } from './page-errors.js';
export { LOGIN_FORM_CHARACTERS, TOKEN_FORM_CHARACTERS } from './form-sizes.js';
export { refusedForLimit, type LimitedThing } from './limit-refusal.js';
export { identityErrorPage } from './error-page.js';
export { identityPage, type IdentityPageOptions } from './identity-page.js';
export { keptUiLocales, languageLinks, localeOfMessage, mailHintsOf, pageLocale, wordsFor, LOCALE_COOKIE, type LanguageLink } from './page-locale.js';
export { pageMessages, PAGE_CATALOGUES, type PageKey, type PageMessages } from './messages/index.js';

/*
 * What every page of the web app uses: the page frame (header, navigation, forms, copy fields),
 * the pages' words in each language and how one is chosen, how times are worded, the cookies, the web sessions and their lookup, and identity as the
 * sign-in's OIDC provider. Feature folders import it through this module only.
 */
export { chromedPage, copyField, COPY_SCRIPT, KEEP_FRAGMENT_SCRIPT, nav, pageFrame, postForm, type Chrome } from './chrome.js';
export { duration, when } from './format.js';
export { formErrorText } from './form-errors.js';
export { secretsErrorPage } from './error-page.js';
export { zkWords } from './zk-words.js';
export { LOCALE_COOKIE, pageLocale, wordsOf } from './page-locale.js';
export { PAGE_CATALOGUES, pageMessages, type PageKey, type PageMessages } from './messages/index.js';
export { cookieHeader, readCookie, webCookies, type WebCookies } from './cookies.js';
export { safeReturn } from './safe-return.js';
export { IdentityClient, SignInFailedError, type IdentityClientOptions, type PendingSignIn } from './identity-client.js';
export { WebSessions, type WebSession } from './sessions.js';
export { WebSessionsRepository } from './sessions.repository.js';
export { nobodySignedIn, pageSessions, type PageSessions, type Viewer } from './page-session.js';
export type { PageContext } from './page-context.js';

/**
 * The sign-in both consoles use (the account console, the admin console): identity's own
 * authorization code flow with PKCE through openid-client, the session in a sealed cookie,
 * `requireConsoleSession`, CSRF for forms and RP-initiated sign-out (the console layout is the page kit's, pages/).
 * See ConsoleSignIn (console-sign-in.ts) for how a console mounts it.
 */
export { ACCOUNT_CONSOLE, ADMIN_CONSOLE, type ConsoleClient } from './console-clients.js';
export { consoleSignIn, type ConsolePageContent, type ConsoleSignIn, type ConsoleSignInOptions } from './console-sign-in.js';
export { type ConsoleSession, safeReturnPath } from './console-session.js';

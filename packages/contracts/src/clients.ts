/**
 * The OAuth clients identity registers for the other parts of Hush, by id, and the addresses they
 * rely on. Identity creates them (bootstrap, a migration); the secrets service, identity's own
 * handover and the command line present these ids.
 */

/** The secrets service's web app: a confidential client (authorization code with PKCE). */
export const WEB_CLIENT_ID = 'hush-secrets-web';

/**
 * Where identity sends the web app's people back, under the secrets service's origin: the
 * authorization code to WEB_CALLBACK_PATH, the end of a sign-out to WEB_SIGNED_OUT_PATH. Identity
 * registers both as the web client's redirect URIs; the web app serves them.
 */
export const WEB_CALLBACK_PATH = '/auth/callback';
export const WEB_SIGNED_OUT_PATH = '/auth/signed-out';

/** Identity's own client of the secrets API (credential handover): client credentials. */
export const HANDOVER_CLIENT_ID = 'hush-handover';

/** The `hush` command line: a public client, device authorization grant (seeded by identity's migrations). */
export const CLI_CLIENT_ID = 'hush-cli';

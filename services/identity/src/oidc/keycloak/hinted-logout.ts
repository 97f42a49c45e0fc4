import * as querystring from 'node:querystring';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ROUTES } from '../routes.js';

/** The query parameter of the confirmation URL that a hinted logout redirects to (oidc/logout.ts). */
export const HINTED_CONFIRM_PARAM = 'xsrf';

const CONFIRM = `${ROUTES.end_session}/confirm`;

/**
 * The second half of a sign-out with a valid `id_token_hint` (oidc/logout.ts): oidc-provider
 * confirms a logout only by a form POST carrying the session's one-time xsrf secret, so the GET
 * of its confirmation URL with that secret is handed to it as that POST (`logout=yes`: the whole
 * session ends, as Keycloak's logout does). oidc-provider compares the secret with the one it
 * stored in this browser's session, in constant time, and takes it once; any other GET of the
 * path is left to it (a 404). The secret travels only in a redirect from our origin to our own,
 * and no Referer leaves our origin (`Referrer-Policy: same-origin` on our pages).
 */
export function hintedLogoutConfirm() {
  return async function confirm(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    const secret = ctx.query[HINTED_CONFIRM_PARAM];
    if (ctx.method !== 'GET' || ctx.path !== CONFIRM || typeof secret !== 'string') return next();
    // A GET has no body to read: drained, so oidc-provider takes the form below as the body.
    if (!ctx.req.readableEnded) {
      await new Promise<void>((resolve, reject) => {
        ctx.req.once('end', resolve).once('error', reject);
        ctx.req.resume();
      });
    }
    const body = Buffer.from(querystring.stringify({ xsrf: secret, logout: 'yes' }));
    ctx.method = 'POST';
    ctx.req.headers['content-type'] = 'application/x-www-form-urlencoded';
    ctx.req.headers['content-length'] = String(body.length);
    Object.assign(ctx.req, { body });
    await next();
  };
}

import type { KoaContextWithOIDC } from 'oidc-provider';
import type { RateLimit } from '@hush/common';
import { renderError } from '../error-page.js';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';

/** The endpoints that start a sign-in, each storing something before anyone has signed in: an interaction, a device code, a pushed request. */
const STARTS = new Set<string>([ROUTES.authorization, ROUTES.device_authorization, ROUTES.pushed_authorization_request, LEGACY_PAR_PATH]);

/**
 * Bounds the sign-ins one address can start (anonymous work, docs/security.md): each request to
 * the authorization, device authorization or pushed authorization request endpoint spends one
 * point of SIGN_IN_MAX_PER_IP per SIGN_IN_WINDOW before oidc-provider reads or stores anything;
 * past them it is answered 429 with Retry-After, as `temporarily_unavailable` (the error page for
 * a browser, OAuth's JSON otherwise), and stores nothing. Resuming a sign-in (`…/auth/<uid>`) and
 * preflights spend nothing.
 */
export function signInStarts(limit: Pick<RateLimit, 'consume'>) {
  return async function limitSignInStarts(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (!STARTS.has(ctx.path) || ctx.method === 'OPTIONS') return next();
    const wait = await limit.consume(ctx.ip);
    if (wait === 0) return next();
    ctx.status = 429;
    ctx.set('Retry-After', String(wait));
    ctx.set('cache-control', 'no-store');
    const out = { error: 'temporarily_unavailable', error_description: `too many sign-ins started from this address; retry after ${wait} seconds` };
    if (ctx.accepts('json', 'html') === 'html') renderError(ctx, out);
    else ctx.body = out;
  };
}

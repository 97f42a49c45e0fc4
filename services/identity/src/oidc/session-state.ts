import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { REALM_PATH } from '../config.js';

/**
 * The browser-side half of Keycloak's session status protocol (the page is keycloak/session-iframe.ts).
 *
 * keycloak-js asks its hidden iframe, every few seconds, "<client_id> <sid>", where sid is the
 * `sid` claim of its access token, and signs the user out when the answer is "changed". Keycloak
 * has one sid per browser session, the same for every client; the iframe compares it with a
 * cookie that names the current session. We do the same:
 * - every client's `sid` in a browser session is the session's `uid` (oidc-provider would draw
 *   a random one per client; the patch of `ensureClientContainer` in patches.ts), so ID
 *   tokens, access tokens and `session_state` of all clients of a session carry one value;
 * - the authorization response carries `session_state` (= sid), as Keycloak's does;
 * - each successful authorization sets the cookie `hush_session_state` = sid, readable by the
 *   iframe's script (not HttpOnly: it is not a credential — the session cookie is, and stays
 *   HttpOnly; the sid is already in every token the clients hold); signing out clears it.
 *   The iframe is a third-party frame on the client's site, so the cookie is `SameSite=None;
 *   Secure` wherever browsers accept Secure cookies (https, and http on loopback hosts). On a
 *   plain-http deployment it is `SameSite=Lax`, which only same-site clients can read; the
 *   third-party-cookie check pages test the same attributes, so keycloak-js then turns the
 *   iframe off instead of seeing a sign-out that did not happen.
 */
export const SESSION_STATE_COOKIE = 'hush_session_state';
const COOKIE_PATH = `${REALM_PATH}/`;

/** The attributes of the cookies the iframe pages read or write (see above). */
export function frameCookieAttributes(publicUrl: string): string {
  const { protocol, hostname } = new URL(publicUrl);
  const trustworthy = protocol === 'https:' || hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  return trustworthy ? 'SameSite=None; Secure' : 'SameSite=Lax';
}

export function sessionStateProtocol(provider: Provider, opts: { publicUrl: string; sessionTtl: number }): void {
  const attributes = frameCookieAttributes(opts.publicUrl);
  const setCookie = (ctx: KoaContextWithOIDC, value: string, maxAge: number) =>
    ctx.append('Set-Cookie', `${SESSION_STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; ${attributes}`);

  // oidc-provider emits the response's parameters before it sends them (actions/authorization/respond.js,
  // documented as the `authorization.success` event); the device flow emits no parameters.
  const on = provider.on.bind(provider) as (event: string, listener: (ctx: KoaContextWithOIDC, out?: Record<string, unknown>) => void) => void;
  on('authorization.success', (ctx, out) => {
    const { session: current, client } = ctx.oidc;
    if (!out || !current?.accountId || !client) return;
    const sid = current.sidFor(client.clientId);
    if (!sid) return;
    out['session_state'] = sid;
    setCookie(ctx, sid, opts.sessionTtl);
  });

  on('end_session.success', (ctx) => {
    if ((ctx.oidc.session as { destroyed?: boolean } | undefined)?.destroyed) setCookie(ctx, '', 0);
  });
}

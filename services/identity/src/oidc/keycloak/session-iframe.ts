import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import { embeddablePage, html, layout } from '@hush/common';
import { REALM_PATH } from '../../config.js';
import { PROTOCOL } from '../routes.js';
import { frameCookieAttributes, SESSION_STATE_COOKIE } from '../session-state.js';
import { clientWebOrigins } from './cors.js';

/**
 * The pages keycloak-js loads in hidden iframes when `checkLoginIframe` is on (its default):
 * - `login-status-iframe.html`: answers the app's "<client_id> <sid>" messages with
 *   "unchanged" (sid is the browser's current session: the `hush_session_state` cookie, see
 *   ../session-state.ts), "changed" (signed out, or another session) or "error" (unknown client,
 *   or a message from an origin that is not one of the client's web origins). It asks
 *   `login-status-iframe.html/init?client_id=&origin=` once per client and origin: 204 when the
 *   origin is one of the client's web origins, 403 when not, 404 for an unknown client;
 * - `3p-cookies/step1.html` sets a test cookie with the session-state cookie's attributes and goes
 *   to `step2.html`, which tells the app "supported" or "unsupported" (keycloak-js then turns
 *   the iframe off instead of reporting sign-outs that did not happen).
 * All are pages of the shared layout whose one script runs under the CSP nonce; any registered web
 * origin may frame them (the frame's URL names no client), and the iframe answers only the
 * origins its `init` check accepted.
 */
const STATUS = `${PROTOCOL}/login-status-iframe.html`;
const INIT = `${STATUS}/init`;
const STEP1 = `${PROTOCOL}/3p-cookies/step1.html`;
const STEP2 = `${PROTOCOL}/3p-cookies/step2.html`;
const TEST_COOKIE = 'hush_3p_check';

/** The iframe's check of a client and the origin that messages it: each named once, not empty. */
const InitQuery = z.object({ client_id: z.string().min(1), origin: z.string().min(1) });
const TEST_COOKIE_PATH = `${REALM_PATH}${PROTOCOL}/3p-cookies/`;

/** Scripts we wrote; the only values in them are constants, embedded as JSON. */
const statusScript = `(function () {
  var COOKIE = ${JSON.stringify(SESSION_STATE_COOKIE)};
  var checks = {};
  function sessionState() {
    var parts = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === COOKIE) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return '';
  }
  function allowed(clientId, origin) {
    var key = JSON.stringify([clientId, origin]);
    if (!checks[key]) {
      var url = location.pathname + '/init?client_id=' + encodeURIComponent(clientId) + '&origin=' + encodeURIComponent(origin);
      checks[key] = fetch(url, { credentials: 'omit', cache: 'no-store' }).then(
        function (r) { return r.status === 204; },
        function () { delete checks[key]; return false; }
      );
    }
    return checks[key];
  }
  window.addEventListener('message', function (event) {
    if (typeof event.data !== 'string' || !event.source) return;
    var space = event.data.indexOf(' ');
    var clientId = space < 0 ? event.data : event.data.slice(0, space);
    var sid = space < 0 ? '' : event.data.slice(space + 1);
    var source = event.source;
    var origin = event.origin;
    allowed(clientId, origin).then(function (ok) {
      source.postMessage(!ok ? 'error' : sid === sessionState() ? 'unchanged' : 'changed', origin);
    });
  });
})();`;

const step1Script = (attributes: string) => `(function () {
  document.cookie = ${JSON.stringify(`${TEST_COOKIE}=supported; Path=${TEST_COOKIE_PATH}; Max-Age=60; ${attributes}`)};
  location.replace('step2.html');
})();`;

const step2Script = (attributes: string) => `(function () {
  var supported = (document.cookie ? document.cookie.split('; ') : []).indexOf(${JSON.stringify(`${TEST_COOKIE}=supported`)}) !== -1;
  document.cookie = ${JSON.stringify(`${TEST_COOKIE}=; Path=${TEST_COOKIE_PATH}; Max-Age=0; ${attributes}`)};
  window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
})();`;

export function sessionIframe(provider: Provider, deps: { publicUrl: string; allWebOrigins(): Promise<string[]> }) {
  const attributes = frameCookieAttributes(deps.publicUrl);
  const page = async (ctx: KoaContextWithOIDC, title: string, script: string, connectSelf = false) => {
    const nonce = embeddablePage(ctx.req, ctx.res, { frameAncestors: await deps.allWebOrigins(), connectSelf });
    ctx.type = 'html';
    ctx.body = layout({ title, nonce, body: html`<p>${title}</p>`, script });
  };

  return async function serveIframePages(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    switch (ctx.path) {
      case STATUS:
        return page(ctx, 'Session status', statusScript, true);
      case STEP1:
        return page(ctx, 'Cookie check', step1Script(attributes));
      case STEP2:
        return page(ctx, 'Cookie check', step2Script(attributes));
      case INIT: {
        ctx.set('Cache-Control', 'no-store');
        const query = InitQuery.safeParse(ctx.query);
        if (!query.success) {
          ctx.status = 400;
          return;
        }
        const client = await provider.Client.find(query.data.client_id);
        ctx.status = !client ? 404 : clientWebOrigins(client).includes(query.data.origin) ? 204 : 403;
        return;
      }
      default:
        return next();
    }
  };
}

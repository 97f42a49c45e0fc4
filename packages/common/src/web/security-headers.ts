import { randomBytes } from '../crypto/crypto.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Security headers of every response, through helmet, in two variants:
 * - pages: a strict CSP whose only sources of style and script are the response's own nonce
 *   (one random 128-bit nonce per response), no framing, no Referer to any other origin (page
 *   URLs carry keys), no caching, no indexing. `same-origin`, not `no-referrer`: under
 *   `no-referrer` a browser's POST from our own page says `Origin: null`, which the CSRF check
 *   cannot tell from a sandboxed frame's (csrf.ts), and a browser sends no Sec-Fetch-Site to a
 *   plain-HTTP origin that is not localhost;
 * - JSON APIs: the same minus the nonce, as nothing in a JSON body may run or be framed.
 * HSTS is left to the TLS-terminating proxy (these services also answer plain HTTP inside the
 * cluster), as before.
 */

const nonces = new WeakMap<ServerResponse, string>();
const nonceSource = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonces.get(res) ?? ''}'`;
const formTargets = new WeakMap<ServerResponse, string>();
const formActionSources = (_req: IncomingMessage, res: ServerResponse) => ["'self'", formTargets.get(res)].filter(Boolean).join(' ');
const ancestors = new WeakMap<ServerResponse, string>();
const frameAncestorSources = (_req: IncomingMessage, res: ServerResponse) => ancestors.get(res) ?? "'none'";
const connecting = new WeakSet<ServerResponse>();
const connectSources = (_req: IncomingMessage, res: ServerResponse) => (connecting.has(res) ? "'self'" : "'none'");

const pageHelmet = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: [nonceSource],
      scriptSrc: [nonceSource],
      imgSrc: ["'self'", 'data:'],
      connectSrc: [connectSources],
      formAction: [formActionSources],
      frameAncestors: [frameAncestorSources],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'same-origin' },
  xFrameOptions: { action: 'deny' },
  strictTransportSecurity: false,
});

const apiHelmet = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } },
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
  strictTransportSecurity: false,
});

const noop = () => {};

/**
 * Sets the page headers on any Node response (Express's or the one oidc-provider's Koa wraps) and
 * returns the response's nonce; a second call on the same response returns the same nonce.
 */
export function securePage(req: IncomingMessage, res: ServerResponse): string {
  const existing = nonces.get(res);
  if (existing) return existing;
  const nonce = randomBytes(16).toString('base64');
  nonces.set(res, nonce);
  // helmet's middlewares only set headers and call `next` synchronously.
  pageHelmet(req, res, noop);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  const locals = (res as ServerResponse & { locals?: Record<string, unknown> }).locals;
  if (locals) locals['nonce'] = nonce;
  return nonce;
}

/**
 * Lets this page's forms end at one other origin: Chromium applies `form-action` to every
 * redirect that answers a form, so a sign-in form answered by a redirect to the client's
 * redirect_uri must name that origin. Anything but an http(s) URL is ignored.
 */
export function allowFormTarget(req: IncomingMessage, res: ServerResponse, url: unknown): void {
  if (typeof url !== 'string' || !nonces.has(res)) return;
  let origin: string;
  try {
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return;
    origin = target.origin;
  } catch {
    return;
  }
  formTargets.set(res, origin);
  pageHelmet(req, res, noop);
}

/** Lets this page's script fetch from its own origin (`connect-src 'self'`): a button that asks the server for something only when pressed. */
export function allowConnectSelf(req: IncomingMessage, res: ServerResponse): void {
  if (!nonces.has(res)) return;
  connecting.add(res);
  pageHelmet(req, res, noop);
}

/**
 * Makes a page a frame that other sites embed (Keycloak's session iframe and third-party cookie
 * check): `frame-ancestors` names `origins` (only well-formed http(s) origins are kept; none left
 * means 'none'), X-Frame-Options is dropped (it cannot name origins), and with `connectSelf` the
 * page's script may fetch from its own origin. Returns the page's nonce.
 */
export function embeddablePage(req: IncomingMessage, res: ServerResponse, opts: { frameAncestors: readonly string[]; connectSelf?: boolean }): string {
  const nonce = securePage(req, res);
  const origins = opts.frameAncestors.filter((o) => /^https?:\/\/[A-Za-z0-9.[\]:-]+$/.test(o));
  if (origins.length > 0) ancestors.set(res, origins.join(' '));
  if (opts.connectSelf) connecting.add(res);
  pageHelmet(req, res, noop);
  if (origins.length > 0) res.removeHeader('X-Frame-Options');
  return nonce;
}

/** The response's CSP nonce (set by `pageSecurity`/`securePage`); throws if the headers were never set. */
export function nonceOf(res: ServerResponse): string {
  const nonce = nonces.get(res);
  if (!nonce) throw new Error('page rendered without its security headers (pageSecurity middleware missing)');
  return nonce;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** Middleware for HTML pages: the headers above, and the nonce in `res.locals.nonce` (and `nonceOf(res)`). */
export function pageSecurity(): Middleware {
  return (req, res, next) => {
    securePage(req, res);
    next();
  };
}

/**
 * Middleware for JSON APIs: responses carry keys and values, so never cached, sniffed, framed or
 * leaked through Referer. The API's headers do not depend on the request (no nonce): helmet runs
 * once, on a recording response, and each response gets the same calls replayed.
 */
export function apiSecurity(): Middleware {
  const calls: (readonly [name: string, value: string | undefined])[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => calls.push([name, value]),
    removeHeader: (name: string) => calls.push([name, undefined]),
  };
  apiHelmet({} as IncomingMessage, recorder as unknown as ServerResponse, noop);
  calls.push(['Cache-Control', 'no-store']);
  return (_req, res, next) => {
    for (const [name, value] of calls) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

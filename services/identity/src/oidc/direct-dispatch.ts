import type { IncomingMessage, ServerResponse } from 'node:http';
import { urlTextProblem } from '@hush/common';
import { nameServerSpan, tracingOn } from '@hush/telemetry';
import { REALM_PATH } from '../config.js';
import { PROTOCOL } from './routes.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
/** A request as node:http's server hands it over (method always set), plus Express's `originalUrl`. */
type ServerRequest = IncomingMessage & { method: string; originalUrl: string };
/** Middleware that runs for every request, written against Node's request and response. */
export type EveryRequest = (req: ServerRequest, res: ServerResponse, next: () => void) => void;

/**
 * Paths answered by oidc-provider alone: no Express route, and none of the login pages
 * (`/login-actions`), can match them. Compared exactly (Express would also match other letter
 * cases; those still go through Express, to the same handler).
 */
const PROTOCOL_PREFIX = `${REALM_PATH}${PROTOCOL}/`;
const DISCOVERY = `${REALM_PATH}/.well-known/openid-configuration`;

export function isProviderPath(url: string): boolean {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.startsWith(PROTOCOL_PREFIX) || path === DISCOVERY;
}

/**
 * Serves oidc-provider's protocol routes (token, introspection, revocation, certs, ...) without
 * Express in front: on the token endpoint Express's routing and request/response decoration cost
 * more than its work is worth. The middleware that applies to every request still runs, in the
 * same order (request id and log line, metrics), and the request looks to oidc-provider as it did
 * under `app.use(REALM_PATH, …)`: `url` relative to the mount point, `originalUrl` and `baseUrl`
 * set, so the paths it builds are unchanged. Everything else goes to Express, and so does a
 * request whose path or query is not text we take: the input layer there refuses it.
 */
export function directDispatch(opts: { express: Listener; before: EveryRequest[]; provider: () => Listener }): Listener {
  const { express, before, provider } = opts;
  return (req, res) => {
    if (!req.url || !isProviderPath(req.url) || urlTextProblem(req.url)) {
      express(req, res);
      return;
    }
    // Traced, the HTTP server span is named after the path (the protocol's paths are fixed words).
    if (tracingOn()) nameServerSpan(req.method ?? '', req.url.split('?', 1)[0] ?? '');
    const mounted = Object.assign(req, { originalUrl: req.url, baseUrl: REALM_PATH }) as ServerRequest;
    // Each calls `next` synchronously and only observes `finish`.
    for (const m of before) m(mounted, res, noop);
    req.url = req.url.slice(REALM_PATH.length);
    provider()(req, res);
  };
}

const noop = () => undefined;

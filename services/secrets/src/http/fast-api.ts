import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type express from 'express';
import { urlTextProblem } from '@hush/common';
import { nameServerSpan, tracingOn } from '@hush/telemetry';
import type { CompiledEndpoint } from './api-route.js';
import { matcher, segmentsOf } from './route-match.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
type Next = (err?: unknown) => void;
type Middleware = (req: never, res: never, next: Next) => unknown;
type ErrorMiddleware = (err: unknown, req: never, res: never, next: Next) => unknown;

const CANONICAL = /^(?:\/[A-Za-z0-9._~:@!$'()*+,;=-]+)+$/;

interface FastApiOptions {
  /** The Express app: everything the fast path does not take, and the request/response prototypes. */
  app: express.Express;
  /** Where the API is mounted (API_MOUNT). */
  mount: string;
  /** The app-level middleware every request passes first (request id and log, metrics): each calls `next` synchronously. */
  everyRequest: Middleware[];
  /** The API's middleware before the body parser (security headers): synchronous too. */
  api: Middleware[];
  /** The API's body parser (body.ts), as Express runs it. */
  parseBody: Middleware;
  /** The route table's endpoints, compiled (api-route.ts), in matching order. */
  endpoints: readonly CompiledEndpoint[];
  /** The app's error middleware (errorHandler). */
  errorHandler: ErrorMiddleware;
  /** The answer when a route's handlers all call `next()` (Express would go on to its 404). */
  notFound: Middleware;
}

type FastRequest = IncomingMessage & {
  originalUrl: string;
  baseUrl: string;
  url: string;
  params: Record<string, string>;
  res: ServerResponse;
  body?: unknown;
  route?: unknown;
};
type FastResponse = ServerResponse & { req: IncomingMessage; locals: Record<string, unknown>; json: (body: unknown) => unknown };

/**
 * Serves the API's routes without Express's router in front, the way identity's direct-dispatch.ts
 * serves its protocol routes; the route table (api.routes.ts) is matched by our own small matcher
 * (route-match.ts) over the declared paths. The request and response get Express's own prototypes
 * (so `req.ip`, `req.get`, `res.status` and the route handlers behave exactly as under Express)
 * and the same middleware runs in the same order as Express would run it: request id and log,
 * metrics, security headers, body parser, the endpoint's own stack (passport, rate limit,
 * handler), and the error middleware. What it leaves out is the router's walk over every layer
 * for every request, and `res.json` serialises once and writes once. A request it cannot place
 * with certainty (HEAD or another undeclared method, a path that is not canonical) goes to Express,
 * and so does one whose path or query is not text we take: Express's input layer refuses it.
 */
export function fastApi(options: FastApiOptions): Listener {
  const { app, mount, everyRequest, api, parseBody, errorHandler, notFound } = options;
  const routes = matcher(options.endpoints.map((e) => ({ method: e.method, segments: segmentsOf(e.path), target: e })));
  const methods = new Set(options.endpoints.map((e) => e.method.toUpperCase()));
  const prefix = `${mount}/`;
  const requestProto = app.request as object;
  const responseProto = app.response as object;
  const json = fastJson(app.response.json);

  return (req, res) => {
    const url = req.url ?? '';
    const method = req.method ?? '';
    if (!methods.has(method) || !url.startsWith(prefix) || urlTextProblem(url)) return void app(req, res);
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const rest = path.slice(mount.length);
    if (!CANONICAL.test(rest)) return void app(req, res);
    const match = routes.match(method, rest.slice(1).split('/'));
    if (!match) return void app(req, res);
    const endpoint = match.target;
    // Traced, the HTTP server span gets the route's template, as Express's instrumentation gives it.
    if (tracingOn()) nameServerSpan(method, mount + endpoint.label.path);

    // As app.handle and the routers would leave them when the route runs.
    const r = req as FastRequest;
    const s = res as FastResponse;
    // On the server of expressServerOptions the request and response are born with Express's
    // prototypes; on another server they get them here, as app.handle gives them.
    if (Object.getPrototypeOf(r) !== requestProto) Object.setPrototypeOf(r, requestProto);
    if (Object.getPrototypeOf(s) !== responseProto) Object.setPrototypeOf(s, responseProto);
    // Every property in one order: V8 then reuses the same hidden-class transitions for every request.
    r.res = s;
    r.originalUrl = url;
    r.baseUrl = '';
    r.params = EMPTY_PARAMS;
    r.route = undefined;
    s.req = r;
    s.locals = Object.create(null) as Record<string, unknown>;
    s.json = json;
    for (const m of everyRequest) m(r as never, s as never, noop);
    r.baseUrl = mount;
    r.url = url.slice(mount.length);
    for (const m of api) m(r as never, s as never, noop);

    const fail = (err: unknown) => {
      // The error leaves the routers: Express restores the URL and base before its error middleware.
      r.baseUrl = '';
      r.url = url;
      Promise.resolve(errorHandler(err, r as never, s as never, noop)).catch(noop);
    };
    const route = () => {
      r.params = match.params;
      r.route = endpoint.label;
      dispatch(endpoint.stack as Middleware[], r, s, (err) => {
        if (err) return fail(err);
        r.baseUrl = '';
        r.url = url;
        Promise.resolve(notFound(r as never, s as never, (e) => fail(e))).catch(fail);
      });
    };
    if (!endpoint.readsBody) return route();
    try {
      parseBody(r as never, s as never, (err) => (err ? fail(err) : route()));
    } catch (err) {
      fail(err);
    }
  };
}

/** Runs a stack as Express's Route does: in order, a throw or a rejected promise ends it with the error. */
function dispatch(stack: readonly Middleware[], req: FastRequest, res: FastResponse, done: Next): void {
  let i = 0;
  const next: Next = (err) => {
    if (err !== undefined && err !== null) return done(err);
    const layer = stack[i++];
    if (!layer) return done();
    try {
      const result = layer(req as never, res as never, next);
      if (result instanceof Promise) result.then(undefined, done);
    } catch (err) {
      done(err);
    }
  };
  next();
}

/**
 * Options for the node:http server of `app`: its requests and responses are born with Express's
 * prototypes (`app.request`, `app.response`), so neither fastApi nor Express's app.handle has to
 * swap them per request. Swapping an object's prototype after it is built (Object.setPrototypeOf)
 * costs V8 more than the swap: measured under load (docs/performance.md),
 * Express alone answered 2.5 times the requests and promoted no garbage to the old generation
 * once the objects were born right (8 KB per request before).
 */
export function expressServerOptions(app: express.Express): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  return { IncomingMessage: bornWith(IncomingMessage, app.request) as typeof IncomingMessage, ServerResponse: bornWith(ServerResponse, app.response) as typeof ServerResponse };
}

/** A constructor that builds what `base` builds, with `prototype` as the new object's prototype. */
function bornWith(base: new (...args: never[]) => object, prototype: object): unknown {
  // node:http calls `new` on these with its own arguments (socket; request and options).
  function Born(this: unknown, ...args: unknown[]): object {
    return Reflect.construct(base, args, new.target ?? Born) as object;
  }
  Born.prototype = prototype;
  return Born;
}

const noop = () => undefined;
const EMPTY_PARAMS: Record<string, string> = Object.freeze({});

/**
 * Express's `res.json` for what these routes send (an object, no Content-Type set yet, not a
 * conditional GET): the same headers and body, serialised once and written in one call.
 * Anything else goes to Express's own (`expressJson`).
 */
function fastJson(expressJson: (this: unknown, body: unknown) => unknown) {
  return function json(this: FastResponse, body: unknown): unknown {
    const req = this.req;
    const conditional = req.method === 'GET' && (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined);
    if (body === null || typeof body !== 'object' || conditional || this.hasHeader('content-type')) return expressJson.call(this, body);
    const text = JSON.stringify(body);
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', Buffer.byteLength(text));
    this.end(text);
    return this;
  };
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { AccountsDeps } from '../accounts/accounts.js';
import { principalOf, type Authenticator, type Credentials } from '../auth/authenticate.js';
import { isAnonymous } from '../auth/principal.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { setSubjectKey, type ApiDialect } from './dialect.js';
import type { SecretsInputs, TtlBounds } from './secrets-params.js';
import type { Reader } from '../secrets/reveal.js';
import type { ZkDeps } from '../zk/index.js';
import type { Principal } from '../auth/principal.js';
import { collectParams, type ParamsParser } from './params.js';
import type { RateLimiter } from './rate-limit.js';
import { segmentsOf } from './route-match.js';

/**
 * The shape of one declaration in the API's route table (api.routes.ts), and what is derived from
 * it: each (method, path) the route answers, and its middleware stack, the same for Express and
 * for the fast path. The OpenAPI document (openapi.ts) and the log's path templates
 * (request-log.ts) are derived from the same declarations.
 */

export type Method = 'get' | 'post' | 'delete';

/**
 * Per caller, shared by every instance (RATE_LIMIT_*): `account` the authenticated account (an
 * anonymous creator is counted per IP under ANONYMOUS_RATE_LIMIT_*), `accountOrIp` the account
 * when credentials were sent, else the address, `ip` the address.
 */
export type RateLimitKind = 'account' | 'accountOrIp' | 'ip' | 'none';

/** Response schemas by component name (openapi.ts holds each dialect's). */
export type SchemaName =
  'Status' | 'Secret' | 'GeneratedSecret' | 'RevealResult' | 'Metadata' | 'BurnResult' | 'RecentItem' | 'MintedToken' | 'TokenInfo' | 'SecretRequest' | 'ZkSecret';
export type ResponseSchema = SchemaName | { listOf: SchemaName } | { inline: z.ZodType };

/** What the handlers reach. */
export interface ApiContext {
  secrets: SecretsDeps;
  /** The zero-knowledge use-cases' deps (the secrets' and the files). */
  zk: ZkDeps;
  accounts: AccountsDeps;
  dialect: ApiDialect;
  /** The OpenAPI document of this deployment (built from the same table). */
  openapi: object;
}

export interface ApiRoute<I = unknown> {
  operationId: string;
  summary: string;
  /** Every method answers alike; the first is the operation's own, the others get a suffix in the document. */
  methods: readonly [Method, ...Method[]];
  /** Express syntax: `/secret/:key`. */
  path: string;
  /** The same operation at other paths (Onetime Secret's names); operation ids get `At<First segment>`. */
  aliases?: readonly string[];
  /** Path parameters: the name the document gives each, and `subject` for the key Onetime Secret's errors repeat. */
  params?: Readonly<Record<string, { name: string; description: string; subject?: boolean }>>;
  /** Who may call: required for every route (a route without one is refused when the app is built). */
  credentials: Credentials;
  rateLimit: RateLimitKind;
  /** false: the body is not read (nor refused when malformed); the handler may stream it itself (`rawBody`). */
  readsBody?: false;
  /** The body is raw bytes of this type, which the handler reads as a stream (for the document). */
  rawBody?: { contentType: string; description: string };
  /** The parameters' parser (query and body merged), per dialect and the configured ttl bounds; undefined when it reads none. */
  input?: (inputs: SecretsInputs, dialect: ApiDialect, ttl: TtlBounds) => ParamsParser<z.ZodType<I>> | undefined;
  /**
   * The success answer; `status` 200 unless said. `stream`: the handler writes the answer itself
   * (bytes of that content type) instead of returning a JSON body.
   */
  ok: { status?: 200 | 201; schema: ResponseSchema; description: string; headers?: Readonly<Record<string, string>>; stream?: string };
  /** The refusals of the `spec` dialect besides the credentials' and the rate limit's (Onetime Secret's are one 404). */
  errors?: Readonly<Record<string, string>>;
  /** The answer's body, from the parsed input (nothing for a route that streams its answer). */
  handle(ctx: ApiContext, input: I, req: Request, res: Response): Promise<object | void> | object | void;
}

/** Keeps each declaration's input and handler types together; the table holds them unparameterised. */
export const defineRoute = <I>(route: ApiRoute<I>): ApiRoute => route;

/** One (method, path) a route answers. */
export interface Endpoint {
  method: Method;
  path: string;
  operationId: string;
  route: ApiRoute;
}

const capitalised = (s: string) => `${s[0]?.toUpperCase() ?? ''}${s.slice(1)}`;

/** Every (method, path) of the table, in declaration order (the order routes are matched in). */
export function endpointsOf(routes: readonly ApiRoute[]): Endpoint[] {
  return routes.flatMap((route) =>
    [route.path, ...(route.aliases ?? [])].flatMap((path, alias) =>
      route.methods.map((method, m) => ({
        method,
        path,
        operationId: `${route.operationId}${alias === 0 ? '' : `At${capitalised(path.split('/')[1] ?? '')}`}${m === 0 ? '' : capitalised(method)}`,
        route,
      })),
    ),
  );
}

export interface Wiring {
  auth: Authenticator;
  /** RATE_LIMIT_*. */
  limiter: RateLimiter;
  /** ANONYMOUS_SHARES and its own per-IP limit. */
  anonymousShares: boolean;
  anonymousLimiter: RateLimiter;
}

/** A (method, path) ready to serve: its middleware after the body parser, and `route.path` for the metrics' label. */
export interface CompiledEndpoint extends Endpoint {
  readsBody: boolean;
  stack: RequestHandler[];
  /** What Express's `req.route` would be for the metrics' route label. */
  label: { path: string };
}

const ACCEPTS = new Set(['required', 'optional', 'anonymous', 'public']);

/**
 * Builds every endpoint's stack once: credentials (passport), rate limit, then the endpoint itself
 * (parse the input, run the handler, send the answer). A route without a valid credentials entry
 * stops the app from being built: no request may reach a handler around `passport.authenticate`
 * by omission.
 */
export function compileEndpoints(routes: readonly ApiRoute[], ctx: ApiContext, wiring: Wiring): CompiledEndpoint[] {
  const seen = new Set<string>();
  return endpointsOf(routes).map((endpoint) => {
    const { route, method, path } = endpoint;
    const accept = (route.credentials as Partial<Credentials> | undefined)?.accept;
    if (accept === undefined || !ACCEPTS.has(accept)) throw new Error(`API route ${method.toUpperCase()} ${path} declares no credentials entry`);
    const key = `${method} ${path}`;
    if (seen.has(key)) throw new Error(`API route ${method.toUpperCase()} ${path} is declared twice`);
    seen.add(key);
    segmentsOf(path); // throws on a path the fast path's matcher could not read as Express does
    const limit = rateLimit(route, wiring);
    const stack = [...wiring.auth.middleware(route.credentials, wiring), ...(limit ? [limit] : []), handler(route, ctx)];
    return { ...endpoint, readsBody: route.readsBody !== false, stack, label: { path } };
  });
}

function rateLimit(route: ApiRoute, { limiter, anonymousLimiter, anonymousShares }: Wiring): RequestHandler | undefined {
  switch (route.rateLimit) {
    case 'none':
      return undefined;
    case 'ip':
      return limiter.byIp();
    case 'accountOrIp':
      return limiter.byAccountOrIp();
    case 'account': {
      const byAccount = limiter.byAccount();
      if (route.credentials.accept !== 'anonymous' || !anonymousShares) return byAccount;
      const byIp = anonymousLimiter.byIp();
      return function limitCreator(req: Request, res: Response, next: NextFunction) {
        return isAnonymous(principalOf(res)) ? byIp(req, res, next) : byAccount(req, res, next);
      };
    }
  }
}

/** The account reading a secret and its verified address, when the caller sent credentials (an `optional` route has no principal without them). */
export const readerOf = (p: Principal | undefined): Reader => (p === undefined || isAnonymous(p) ? {} : { custid: p.custid, email: p.email });

function handler(route: ApiRoute, ctx: ApiContext): RequestHandler {
  const parser = route.input?.(ctx.dialect.inputs, ctx.dialect, ctx.secrets.settings.ttl);
  const subject = Object.entries(route.params ?? {}).find(([, p]) => p.subject)?.[0];
  const status = route.ok.status ?? 200;
  return async function endpoint(req: Request, res: Response) {
    if (subject !== undefined) setSubjectKey(res, String(req.params[subject]));
    const input = parser ? parser.parse(collectParams(req)) : undefined;
    const body = await route.handle(ctx, input, req, res);
    if (route.ok.stream !== undefined) return;
    if (status !== 200) res.status(status);
    res.json(body);
  };
}

const shapeOf = (segments: readonly (string | { param: string })[]) => `/${segments.map((s) => (typeof s === 'string' ? s : `:${s.param}`)).join('/')}`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Keys in paths are capabilities: a function that rewrites every declared capability segment of a
 * path (under the mount or not: the recipient pages share the API's shapes) to its template,
 * `/secret/<key>` to `/secret/:key`, leaving the literal routes beside it (`/private/recent`) as
 * they are. For logs, which get the route shape, never the key.
 */
export function capabilityTemplates(routes: readonly ApiRoute[]): (path: string) => string {
  const endpoints = endpointsOf(routes).map((e) => segmentsOf(e.path));
  const rules = new Map<string, RegExp>();
  for (const segments of endpoints) {
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (typeof segment === 'string') continue;
      const prefix = segments.slice(0, i);
      if (!prefix.every((s) => typeof s === 'string')) break;
      const at = shapeOf(prefix);
      // Literal routes at the same place (`recent`) are not keys.
      const literals = endpoints.filter((o) => o.length > i && shapeOf(o.slice(0, i)) === at && typeof o[i] === 'string').map((o) => escape(o[i] as string));
      const not = literals.length > 0 ? `(?!(?:${[...new Set(literals)].join('|')})(?:/|$))` : '';
      rules.set(`${at}/:${segment.param}`, new RegExp(`${escape(at)}/${not}[^/]+`, 'g'));
      break;
    }
  }
  const rewrites = [...rules].map(([template, pattern]) => ({ template, pattern }));
  return (path) => rewrites.reduce((p, { template, pattern }) => p.replace(pattern, template), path);
}

import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { verifyBodyText } from '@hush/common';
import { InvalidInputError } from '../errors.js';
import type { AdminRole } from '../roles/index.js';
import { callerOf, type AdminCaller } from './admin-caller.js';

/**
 * The shape of one declaration of the admin API's route table (admin.routes.ts), and the Express
 * router derived from it. The OpenAPI document (admin-openapi.ts) is derived from the same table.
 *
 * Keycloak's HTTP habits, which its client libraries depend on, are kept here once:
 * - a collection path answers with and without a trailing slash (`/clients/` as `/clients`);
 * - `201` answers carry an absolute `Location` ending in the new id and no body; `204` no body;
 * - bodies are JSON, also a bare JSON value (`"<user id>"` for organization members), and a DELETE
 *   or an action may carry `{}`;
 * - input is parsed by the route's zod schemas (params, query, body) before its handler runs.
 */

export type AdminMethod = 'get' | 'post' | 'put' | 'delete';

export interface AdminInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  caller: AdminCaller;
}

export interface AdminRoute<P = unknown, Q = unknown, B = unknown, C = unknown> {
  operationId: string;
  summary: string;
  method: AdminMethod;
  /** Express syntax, under the mount: `/clients/:id`. */
  path: string;
  /** The realm-management roles any one of which allows the call. */
  roles: readonly AdminRole[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** 201: the handler returns the new id (the Location header's last segment); 204: nothing. */
  ok: { status: 200 | 201 | 204; schema?: z.ZodType; description: string };
  /** The refusals beyond 401/403 (status → description), for the document. */
  errors?: Readonly<Record<string, string>>;
  handle(ctx: C, input: AdminInput<P, Q, B>, req: Request, res: Response): unknown;
}

/** Keeps each declaration's input and handler types together; the table holds them unparameterised. */
export function defineAdminRoute<P, Q, B, C>(route: AdminRoute<P, Q, B, C>): AdminRoute<unknown, unknown, unknown, C> {
  return route;
}

const NO_INPUT = z.object({}).passthrough();

/**
 * The router of the table. `authorize(roles)` is the authentication and role check each route gets
 * first (admin-auth.ts). A change (every method but GET) runs in `transaction` with its `record`
 * (the admin event): both are committed before the answer, or neither is.
 */
export function adminRouter<C>(
  routes: readonly AdminRoute<unknown, unknown, unknown, C>[],
  ctx: C,
  opts: {
    publicUrl: string;
    authorize: (roles: readonly AdminRole[]) => RequestHandler[];
    transaction?: <T>(work: (ctx: C) => Promise<T>) => Promise<T>;
    record?: (ctx: C, route: AdminRoute<unknown, unknown, unknown, C>, input: AdminInput<unknown, unknown, unknown>, result: unknown, res: Response) => Promise<void>;
  },
): Router {
  // Not strict: `/clients/` is `/clients`, as Keycloak answers both.
  const router = express.Router({ strict: false, mergeParams: true });
  // Read as text and parsed by the endpoint (jsonBody): Keycloak's library sends some bodies
  // that are not JSON under `application/json` (a member's bare user id, unquoted). Text that is
  // not UTF-8, or holds NUL or a lone surrogate (escaped or not), is refused before (400).
  router.use(express.text({ type: () => true, limit: '256kb', verify: verifyBodyText('json') }));
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`admin route ${key} declared twice`);
    seen.add(key);
    if (route.roles.length === 0) throw new Error(`admin route ${key} declares no role`);
    router[route.method](route.path, ...opts.authorize(route.roles), endpoint(route, ctx, opts));
  }
  return router;
}

function endpoint<C>(route: AdminRoute<unknown, unknown, unknown, C>, ctx: C, opts: Parameters<typeof adminRouter<C>>[2]): RequestHandler {
  return async function adminEndpoint(req: Request, res: Response) {
    const input: AdminInput<unknown, unknown, unknown> = {
      params: parse(route.params ?? NO_INPUT, req.params, 'path'),
      query: parse(route.query ?? NO_INPUT, req.query, 'query'),
      body: route.body ? parse(route.body, jsonBody(req.body), 'body') : undefined,
      caller: callerOf(res),
    };
    const change = async (c: C) => {
      const result: unknown = await route.handle(c, input, req, res);
      await opts.record?.(c, route, input, result, res);
      return result;
    };
    const inTransaction = opts.transaction ?? ((work: (c: C) => Promise<unknown>) => work(ctx));
    const result = route.method === 'get' ? await route.handle(ctx, input, req, res) : await inTransaction(change);
    if (route.ok.status === 201) {
      const path = req.originalUrl.split('?')[0]!.replace(/\/+$/, '');
      res
        .status(201)
        .location(`${opts.publicUrl}${path}/${encodeURIComponent(String(result))}`)
        .end();
    } else if (route.ok.status === 204) {
      res.status(204).end();
    } else {
      res.json(result);
    }
  };
}

/**
 * The body as JSON; text that is not JSON stays the text it is, for the routes whose body is a
 * bare id (JAX-RS reads a String parameter from the raw body, and Keycloak's library relies on it).
 * Routes expecting an object then refuse it (400) like any other wrong shape.
 */
function jsonBody(text: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.trim();
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new InvalidInputError(`invalid ${where}: ${at}${issue?.message ?? 'malformed'}`);
}

import { DependencyUnavailableError, DomainError } from '@hush/common';
import { ADMIN_MOUNT } from '../admin-api/index.js';

/**
 * The admin console's only way to read or change the realm: the admin API itself, over HTTP at
 * identity's internal URL (INTERNAL_URL, else AUTH_URL), with the signed-in administrator's access
 * token. Whatever the API refuses, the console refuses too (its 400/403/404/409 become the page's
 * error, worded by `refusal` in the page's language with the API's words where it gave some).
 */
export interface AdminApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export type AdminApiCall = <T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts?: { query?: Record<string, string | undefined>; body?: unknown },
) => Promise<AdminApiAnswer<T>>;

export class AdminApiRefusedError extends DomainError {
  constructor(status: number, message: string) {
    super(status, 'admin_api_refused', message);
  }
}

const TIMEOUT_MS = 10_000;

/** How a refusal reads on the page: the API's status and, where it said one, its own message. */
export type Refusal = (status: number, detail: string | undefined) => string;

export function adminApiFor(apiUrl: string, accessToken: string, refusal: Refusal): AdminApiCall {
  return async function call<T>(method: string, path: string, opts: { query?: Record<string, string | undefined>; body?: unknown } = {}) {
    const url = new URL(`${apiUrl}${ADMIN_MOUNT}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (err) {
      throw new DependencyUnavailableError('admin API', err);
    }
    const text = await res.text();
    let body: unknown = undefined;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    if (res.status >= 400) throw new AdminApiRefusedError(res.status >= 500 ? 503 : res.status, refusal(res.status, detailOf(body)));
    return { status: res.status, body: body as T, headers: res.headers };
  };
}

/** The API's own message in a refusal: Keycloak's `errorMessage`, else `error_description` or `error`. */
function detailOf(body: unknown): string | undefined {
  const b = (body ?? {}) as { errorMessage?: unknown; error?: unknown; error_description?: unknown };
  for (const v of [b.errorMessage, b.error_description, b.error]) if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** The last path segment of a 201's Location: the new id. */
export const createdId = (answer: AdminApiAnswer): string => (answer.headers.get('location') ?? '').split('/').pop() ?? '';

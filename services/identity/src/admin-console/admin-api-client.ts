import { DependencyUnavailableError, DomainError } from '@hush/common';
import { ADMIN_MOUNT } from '../admin-api/index.js';

/**
 * The admin console's only way to read or change the realm: the admin API itself, over HTTP at
 * identity's internal URL (INTERNAL_URL, else AUTH_URL), with the signed-in administrator's access
 * token. Whatever the API refuses, the console refuses too (its 400/403/404/409 become the page's
 * error, with the API's words).
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

export function adminApiFor(apiUrl: string, accessToken: string): AdminApiCall {
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
    if (res.status >= 400) throw new AdminApiRefusedError(res.status >= 500 ? 503 : res.status, refusal(res.status, body));
    return { status: res.status, body: body as T, headers: res.headers };
  };
}

function refusal(status: number, body: unknown): string {
  const b = (body ?? {}) as { errorMessage?: unknown; error?: unknown; error_description?: unknown };
  if (typeof b.errorMessage === 'string') return b.errorMessage;
  if (status === 403) return 'Your administrator roles do not allow this.';
  if (status === 404) return 'Not found (it may have been deleted, or it is outside your organization).';
  if (status >= 500) return 'The admin API could not do this now. Try again later.';
  return typeof b.error === 'string' ? b.error : `The admin API refused this (${status}).`;
}

/** The last path segment of a 201's Location: the new id. */
export const createdId = (answer: AdminApiAnswer): string => (answer.headers.get('location') ?? '').split('/').pop() ?? '';

import type { IncomingMessage } from 'node:http';

/** One cookie of the request (the first of that name), undefined when absent. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie value: always HttpOnly; `maxAge` 0 deletes it. */
export function cookieHeader(name: string, value: string, o: { path: string; maxAge?: number; secure: boolean; sameSite: 'Lax' | 'Strict' }): string {
  return [
    `${name}=${value}`,
    `Path=${o.path}`,
    ...(o.maxAge !== undefined ? [`Max-Age=${o.maxAge}`] : []),
    'HttpOnly',
    `SameSite=${o.sameSite}`,
    ...(o.secure ? ['Secure'] : []),
  ].join('; ');
}

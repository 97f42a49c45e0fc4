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

/**
 * The web app's two cookies. Over HTTPS their names carry the `__Host-`/`__Secure-` prefixes, so
 * a browser accepts them only from a secure origin (and the session cookie only for this host).
 */
export interface WebCookies {
  /** The session id (cookie `hush_session`): the whole site, SameSite=Lax so identity's redirect back carries it. */
  session: string;
  /** The sealed sign-in in progress (cookie `hush_signin`): only `/auth`, for SIGN_IN_SECONDS. */
  signIn: string;
  sessionCookie(value: string, maxAge?: number): string;
  signInCookie(value: string, maxAge: number): string;
}

export function webCookies(baseUrl: string): WebCookies {
  const secure = baseUrl.startsWith('https:');
  const session = secure ? '__Host-hush_session' : 'hush_session';
  const signIn = secure ? '__Secure-hush_signin' : 'hush_signin';
  return {
    session,
    signIn,
    sessionCookie: (value, maxAge) => cookieHeader(session, value, { path: '/', secure, sameSite: 'Lax', ...(maxAge !== undefined ? { maxAge } : {}) }),
    signInCookie: (value, maxAge) => cookieHeader(signIn, value, { path: '/auth', secure, sameSite: 'Lax', maxAge }),
  };
}

import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KeyRing } from '../crypto/crypto-ring.js';
import { constantTimeEqual, randomBytes } from '../crypto/crypto.js';
import { fixedError } from '../http/errors.js';

/**
 * Cross-site request forgery defences of our HTML forms (JSON APIs need none: they take no
 * cookies). Rules:
 * - every form carries a token `HMAC(key, binding)` in the field `csrf`; the key is derived from
 *   the service's master key, and the binding names the client and the resource: identity binds
 *   to the interaction (itself tied to a signed cookie), pages without a session to a random
 *   client id in an HttpOnly, SameSite=Strict cookie plus the form's action;
 * - tokens are compared in constant time;
 * - a POST must come from our own origin when the browser says where it comes from
 *   (Sec-Fetch-Site, else Origin, else Referer); a request that says nothing (curl, old
 *   browsers) still needs the token;
 * - `Origin: null` is an opaque origin (a sandboxed frame, a `data:` page, a redirect across
 *   sites): refused unless Sec-Fetch-Site says same-origin. Our pages' Referrer-Policy is
 *   `same-origin` (security-headers.ts), so a browser's POST from them names our origin.
 */
export const CSRF_FIELD = 'csrf';

export class CsrfRejectedError extends fixedError(400, 'csrf_rejected', 'The form expired or was not sent from this page: go back, reload the page and try again') {}
export class CrossOriginFormError extends fixedError(403, 'cross_origin', 'This form was sent from another site') {}

export interface Csrf {
  /** The token of a form bound to `binding`. */
  token(binding: string): string;
  /** Whether `sent` (the form's `csrf` field, whatever its type) is the token of `binding`. */
  verify(binding: string, sent: unknown): boolean;
}

/** `key`: one key, or a ring (tokens made under its newest key, accepted under any: forms survive a key rotation). */
export function createCsrf(key: Buffer | KeyRing): Csrf {
  if (key instanceof KeyRing) {
    return {
      token: (binding) => key.mac(binding).toString('base64url'),
      verify: (binding, sent) => typeof sent === 'string' && sent !== '' && key.verifyMac(binding, Buffer.from(sent, 'base64url')),
    };
  }
  const token = (binding: string) => createHmac('sha256', key).update(binding).digest('base64url');
  return {
    token,
    verify: (binding, sent) => typeof sent === 'string' && sent !== '' && constantTimeEqual(sent, token(binding)),
  };
}

const CLIENT_COOKIE = 'hush_csrf';
const CLIENT_ID = /^[A-Za-z0-9_-]{22}$/;

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const isHttps = (req: IncomingMessage) => (req as IncomingMessage & { secure?: boolean }).secure === true;

/** CSRF for pages without a session: the client is a random id kept in a cookie. */
export interface FormGuard {
  /** The token of a form on this page (sets the client cookie on first use). */
  issue(req: IncomingMessage, res: ServerResponse, resource: string): string;
  /** Throws CsrfRejectedError unless the request carries this client's token for `resource`. */
  check(req: IncomingMessage & { body?: unknown }, resource: string): void;
}

export function formGuard(csrf: Csrf): FormGuard {
  const binding = (client: string, resource: string) => `${client}\n${resource}`;
  return {
    issue(req, res, resource) {
      let client = cookie(req, CLIENT_COOKIE);
      if (!client || !CLIENT_ID.test(client)) {
        client = randomBytes(16).toString('base64url');
        res.appendHeader('Set-Cookie', `${CLIENT_COOKIE}=${client}; Path=/; HttpOnly; SameSite=Strict${isHttps(req) ? '; Secure' : ''}`);
      }
      return csrf.token(binding(client, resource));
    },
    check(req, resource) {
      const client = cookie(req, CLIENT_COOKIE);
      const sent = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
      if (!client || !CLIENT_ID.test(client) || !csrf.verify(binding(client, resource), sent)) throw new CsrfRejectedError();
    },
  };
}

/** Whether the browser says this request comes from another origin than `host` (the request's Host, or a configured public origin). */
export function isCrossOrigin(req: IncomingMessage, allowedOrigins: readonly string[] = []): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === 'null') return true;
  const from = origin || req.headers.referer;
  if (!from) return false;
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    return true;
  }
  return url.host !== req.headers.host && !allowedOrigins.includes(url.origin);
}

/** Middleware refusing (403 page via the error handler) a form POST that a browser says came from another site. */
export function sameOrigin(allowedOrigins: readonly string[] = []) {
  return (req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void) => {
    next(isCrossOrigin(req, allowedOrigins) ? new CrossOriginFormError() : undefined);
  };
}

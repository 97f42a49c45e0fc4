import type { IncomingMessage, ServerResponse } from 'node:http';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { KeyRing } from '@hush/common';
import { z } from 'zod';

/**
 * A console's session, kept by the browser in a cookie sealed with AES-256-GCM under a key
 * derived from MASTER_KEY (KEY_LABELS.consoleSessions) and bound to the cookie's name: the tokens
 * never travel or rest in clear, and a cookie of one console does not open as the other's. The
 * JSON is deflated before sealing: three JWTs in base64url inside base64url would otherwise come
 * close to the 4 kB browsers keep of a cookie (the admin console's access token carries roles).
 */
export const consoleSessionSchema = z.object({
  /** A random id, the binding of this session's CSRF tokens. */
  id: z.string(),
  /** The signed-in person (`sub`: the user id) and their username. */
  userId: z.string(),
  username: z.string(),
  accessToken: z.string(),
  /** When the access token expires (epoch seconds). */
  expiresAt: z.number(),
  refreshToken: z.string().optional(),
  /** The ID token: the `id_token_hint` of the sign-out. */
  idToken: z.string(),
  /** The ID token's `sid`: which of the person's identity sessions this console session is. */
  sid: z.string().optional(),
});

export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/** The sign-in under way: what the callback checks (state) and needs (PKCE verifier), and where to go after. */
export const pendingSignInSchema = z.object({ state: z.string(), verifier: z.string(), returnTo: z.string() });
export type PendingSignIn = z.infer<typeof pendingSignInSchema>;

/** What a sealed cookie may open to: far more than its tokens, far less than a decompression bomb. */
const MAX_JSON = 64 * 1024;

export interface SealedCookie<T> {
  read(req: IncomingMessage): T | undefined;
  write(req: IncomingMessage, res: ServerResponse, value: T, maxAgeSeconds: number): void;
  clear(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * A cookie holding `schema`'s value sealed under `key` (or the newest key of a ring, any of whose
 * keys opens it): HttpOnly, SameSite=Lax, on `path`, Secure over https.
 */
export function sealedCookie<S extends z.ZodType>(name: string, path: string, key: Buffer | KeyRing, schema: S): SealedCookie<z.output<S>> {
  const keys = key instanceof KeyRing ? key : KeyRing.of(key);
  const attributes = (req: IncomingMessage, maxAge: number) =>
    `Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${(req as IncomingMessage & { secure?: boolean }).secure ? '; Secure' : ''}`;
  return {
    read(req) {
      const value = cookieValue(req, name);
      if (!value) return undefined;
      try {
        const json = inflateRawSync(keys.open(Buffer.from(value, 'base64url'), name), { maxOutputLength: MAX_JSON }).toString('utf8');
        const parsed = schema.safeParse(JSON.parse(json));
        return parsed.success ? parsed.data : undefined;
      } catch {
        // Tampered, sealed under another MASTER_KEY, or from an older shape: no session.
        return undefined;
      }
    },
    write(req, res, value, maxAge) {
      const sealed = keys.seal(deflateRawSync(JSON.stringify(value)), name).toString('base64url');
      res.appendHeader('Set-Cookie', `${name}=${sealed}; ${attributes(req, Math.max(0, Math.floor(maxAge)))}`);
    },
    clear(req, res) {
      res.appendHeader('Set-Cookie', `${name}=; ${attributes(req, 0)}`);
    },
  };
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Where a console may send a person after signing in: a path of the console itself (`mount`,
 * `mount/...`, `mount?...`), never another origin (`//host`, `/\host`) nor another part of the site.
 */
export function safeReturnPath(candidate: unknown, mount: string): string {
  const home = `${mount}/`;
  if (typeof candidate !== 'string' || candidate.length > 2048) return home;
  if (!/^[\x21-\x7e]+$/.test(candidate) || candidate.includes('\\') || candidate.includes('//')) return home;
  const rest = candidate.slice(mount.length);
  if (!candidate.startsWith(mount) || !(rest === '' || rest.startsWith('/') || rest.startsWith('?'))) return home;
  // No dot segments: /account/../admin would leave the console once a browser resolves it.
  if (/(^|\/)\.\.?(\/|$|\?)/.test(rest) || /%2e|%2f|%5c/i.test(rest.split('?')[0] ?? '')) return home;
  return candidate;
}

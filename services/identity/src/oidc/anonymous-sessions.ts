import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import type { KeyRing } from '@hush/common';

type AdapterClass = new (model: string) => Adapter;

/** The cookie that carries the session of someone not signed in (next to oidc-provider's `_session`, which names it). */
export const ANONYMOUS_SESSION_COOKIE = '_session_anonymous';

/**
 * oidc-provider stores a session for anyone who opens a page with a form (the device code page
 * and the logout confirmation keep their form token in it), and keeps it 14 days: anonymous
 * requests would grow the database at will. A session that holds no one (no account signed in,
 * no authorization) is carried instead by the browser, sealed (AES-256-GCM under the newest key of `keys`,
 * bound to the session's id; any key of the ring opens it) in a cookie that lives as long as the session would; it reaches the database
 * once someone signs in, and its cookie is cleared then.
 *
 * Rules:
 * - only a `Session` saved during a request goes to the cookie; everything else, and a session
 *   saved outside a request, goes to the wrapped adapter unchanged;
 * - a lookup asks the database first, so a stored session always wins over a cookie left behind;
 * - a cookie that does not open (forged, another session's, an old key) is no session at all.
 */
export function anonymousSessionsInCookies(Base: AdapterClass, keys: KeyRing): (model: string) => Adapter {
  class AnonymousSessionsInCookies extends Base {
    override async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const ctx = Provider.ctx;
      if (!ctx) return super.upsert(id, payload, expiresIn);
      if (!holdsNoOne(payload)) {
        clear(ctx);
        return super.upsert(id, payload, expiresIn);
      }
      ctx.cookies.set(ANONYMOUS_SESSION_COOKIE, keys.seal(JSON.stringify(payload), aad(id)).toString('base64url'), { ...COOKIE, secure: ctx.secure, maxAge: expiresIn * 1000 });
    }

    override async find(id: string): Promise<AdapterPayload | undefined> {
      const stored = (await super.find(id)) ?? undefined;
      if (stored) return stored;
      const sealed = Provider.ctx?.cookies.get(ANONYMOUS_SESSION_COOKIE);
      if (!sealed) return undefined;
      try {
        return JSON.parse(keys.open(Buffer.from(sealed, 'base64url'), aad(id)).toString('utf8')) as AdapterPayload;
      } catch {
        return undefined;
      }
    }

    override async destroy(id: string): Promise<void> {
      const ctx = Provider.ctx;
      if (ctx) clear(ctx);
      return super.destroy(id);
    }
  }
  // oidc-provider makes one adapter per model: only sessions get the wrapper, the other models
  // (the token endpoint's) keep the plain adapter and its cost.
  return (model) => (model === 'Session' ? new AnonymousSessionsInCookies(model) : new Base(model));
}

const COOKIE = { httpOnly: true, sameSite: 'lax', path: '/', overwrite: true } as const;

function clear(ctx: NonNullable<typeof Provider.ctx>): void {
  if (ctx.cookies.get(ANONYMOUS_SESSION_COOKIE) !== undefined) ctx.cookies.set(ANONYMOUS_SESSION_COOKIE, null, { ...COOKIE, secure: ctx.secure });
}

const aad = (id: string) => `Session ${id}`;

/** No account signed in and nothing authorized: what the session holds is a form's state at most. */
function holdsNoOne(payload: AdapterPayload): boolean {
  const authorizations = payload.authorizations as Record<string, unknown> | undefined;
  return !payload.accountId && (!authorizations || Object.keys(authorizations).length === 0);
}

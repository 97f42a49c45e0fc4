import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { isUuid } from '@hush/common';
import { ROUTES } from '../routes.js';
import { looksLikeJwt, openAccessEnvelope, type EnvelopeKeys } from '../token-envelope.js';
import type { UsersRepository } from '../../users/index.js';

/**
 * userinfo takes any access token of a user that carries `openid`, as Keycloak's does:
 * - an access-token envelope (OpenID scopes only) is opened, and its stored token goes on to
 *   oidc-provider's userinfo, which checks it and its grant as before;
 * - an API access token (`at+jwt`, which oidc-provider refuses there for its audience) is verified
 *   here: our signature, issuer, `typ: Bearer`, not expired, `openid` in its scope, a user's
 *   `sub`, and not revoked (accessTokenLiveness: its jti, its grant, its client). Its claims follow the token's OpenID scopes, as oidc-provider's answer does.
 * A bare opaque value is refused: access tokens are only ever handed out in envelopes.
 */
export function keycloakUserinfo(keys: () => EnvelopeKeys, users: Pick<UsersRepository, 'findById'>, isLive: (payload: JWTPayload) => Promise<boolean>) {
  return async function userinfo(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (ctx.path !== ROUTES.userinfo || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    const auth = ctx.get('authorization');
    const value = /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
    // A token in the body (RFC 6750 §2.2) is left to oidc-provider, which finds no such stored token.
    if (value === undefined) return next();
    if (!looksLikeJwt(value)) return refuse(ctx, 401, 'invalid_token', 'access token not found');
    if (headerTyp(value) === 'JWT') {
      const id = await openAccessEnvelope(keys(), value);
      if (!id) return refuse(ctx, 401, 'invalid_token', 'access token not found');
      ctx.req.headers.authorization = `Bearer ${id}`;
      return next();
    }

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(value, keys().verifyKeys, { issuer: keys().issuer, typ: 'at+jwt', algorithms: [...keys().signing.keys()], requiredClaims: ['exp'] }));
    } catch {
      return refuse(ctx, 401, 'invalid_token', 'access token not found');
    }
    const scopes = new Set(typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : []);
    if (payload['typ'] !== 'Bearer') return refuse(ctx, 401, 'invalid_token', 'not an access token');
    if (!scopes.has('openid')) return refuse(ctx, 403, 'insufficient_scope', 'access token missing openid scope');
    if (!(await isLive(payload))) return refuse(ctx, 401, 'invalid_token', 'access token revoked');
    const sub = payload['sub'];
    const user = typeof sub === 'string' && isUuid(sub) ? await users.findById(sub) : undefined;
    if (!user) return refuse(ctx, 401, 'invalid_token', 'associated account not found');
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      sub: user.id,
      ...(scopes.has('profile') ? { preferred_username: user.username, ...(user.name ? { name: user.name } : {}) } : {}),
      ...(scopes.has('email') && user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
    };
  };
}

function headerTyp(value: string): unknown {
  try {
    return decodeProtectedHeader(value).typ;
  } catch {
    return undefined;
  }
}

/** RFC 6750 §3: the error in WWW-Authenticate, and in the body as oidc-provider answers. */
function refuse(ctx: KoaContextWithOIDC, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.set('www-authenticate', `Bearer realm="${ctx.origin}", error="${error}", error_description="${description}"`);
  ctx.body = { error, error_description: description };
}

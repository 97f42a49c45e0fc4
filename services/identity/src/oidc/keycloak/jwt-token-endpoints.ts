import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { DependencyUnavailableError, isUuid, reportUnavailable, toDomainError, type Logger } from '@hush/common';
import { sameAddress, type UsersRepository } from '../../users/index.js';
import { accessTokenLiveness, type Revocations } from '../../revocations/index.js';

export interface JwtTokenEndpointsDeps {
  provider: Provider;
  issuer: string;
  /** The provider's signing keys (private parts are dropped here). */
  jwks: JWK[];
  revocations: Pick<Revocations, 'revokeToken' | 'isTokenRevoked'>;
  users: Pick<UsersRepository, 'findById'>;
  logger: Logger;
}

/**
 * Introspection (RFC 7662) and revocation (RFC 7009) of our JWT access tokens, which oidc-provider
 * refuses with `unsupported_token_type`: it does not store them, and its check runs before any
 * setting (`allowedPolicy`) is consulted. oidc-provider still parses the request and
 * authenticates the client (with our rate limits); only its answer to a JWT is replaced here.
 *
 * Rules:
 * - introspection answers `active: true` and the token's claims only when the signature is one of
 *   our keys, the token is not expired, its jti was not revoked, its grant (`grant_id`) still
 *   exists and belongs to its client, and its client still exists; otherwise `{active: false}`.
 *   A public client learns only about its own tokens (oidc-provider's default policy). A token
 *   that says its address is verified is answered `email_verified: false` once the account no
 *   longer has that address verified (it moved, or was unverified, after the token was issued);
 * - revocation of a valid token records its jti until its `exp` (ADR 10) and answers 200; an
 *   invalid or expired token is 200 with nothing done (RFC 7009 §2.2); a confidential client may
 *   not revoke another client's token (`invalid_request`), a public one is ignored;
 * - the grant is left alone: revoking an access token revokes that token (oidc-provider's
 *   `revokeGrantPolicy` for access tokens).
 */
export function jwtTokenEndpoints(deps: JwtTokenEndpointsDeps) {
  const keys = createLocalJWKSet({ keys: deps.jwks.map(publicPart) });

  const verify = async (token: string): Promise<JWTPayload | undefined> => {
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: deps.issuer, requiredClaims: ['jti', 'exp', 'client_id'] });
      return payload;
    } catch {
      return undefined;
    }
  };

  const isActive = accessTokenLiveness(deps.provider, deps.revocations);

  const introspect = async (ctx: KoaContextWithOIDC, token: string): Promise<void> => {
    ctx.status = 200;
    ctx.body = { active: false };
    const payload = await verify(token);
    if (!payload || !isAccessToken(token, payload)) return;
    const caller = ctx.oidc.client;
    if (caller?.clientAuthMethod === 'none' && payload['client_id'] !== caller.clientId) return;
    if (!(await isActive(payload))) return;
    ctx.body = { ...payload, ...(await addressNow(payload)), active: true, token_type: 'Bearer' };
  };

  /** `email_verified: false` when the address the token says is verified is not the account's verified address now. */
  const addressNow = async (payload: JWTPayload): Promise<{ email_verified?: false }> => {
    if (payload['email_verified'] !== true) return {};
    const user = typeof payload.sub === 'string' && isUuid(payload.sub) ? await deps.users.findById(payload.sub) : undefined;
    const email = payload['email'];
    return user?.emailVerified && typeof email === 'string' && sameAddress(user.email, email) ? {} : { email_verified: false };
  };

  const revoke = async (ctx: KoaContextWithOIDC, token: string): Promise<void> => {
    const payload = await verify(token);
    const caller = ctx.oidc.client;
    if (payload && isAccessToken(token, payload) && payload['client_id'] !== caller?.clientId && caller?.clientAuthMethod !== 'none') {
      ctx.status = 400;
      ctx.body = { error: 'invalid_request', error_description: 'client is not authorized to revoke the presented token' };
      return;
    }
    if (payload && isAccessToken(token, payload) && payload['client_id'] === caller?.clientId) {
      await deps.revocations.revokeToken(String(payload.jti), Number(payload.exp));
    }
    ctx.status = 200;
    ctx.body = '';
  };

  return async function jwtIntrospectionAndRevocation(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    const route = ctx.oidc?.route;
    if (route !== 'introspection' && route !== 'revocation') return;
    // oidc-provider has authenticated the client and validated the parameters when it refuses the token's format.
    if (ctx.status !== 400 || (ctx.body as { error?: unknown } | undefined)?.error !== 'unsupported_token_type' || !ctx.oidc.client) return;
    const token = ctx.oidc.params?.['token'];
    if (typeof token !== 'string') return;
    try {
      await (route === 'introspection' ? introspect(ctx, token) : revoke(ctx, token));
    } catch (err) {
      const known = toDomainError(err);
      if (!(known instanceof DependencyUnavailableError)) throw err;
      reportUnavailable(deps.logger, known, ctx.res);
      ctx.status = known.status;
      ctx.set(known.headers);
      ctx.body = { error: 'temporarily_unavailable', error_description: known.message };
    }
  };
}

/**
 * An access token, not another JWT we sign (an ID token, a logout token, a JWT-shaped refresh
 * token): RFC 9068's `typ: at+jwt` header, or Keycloak's `typ: "Bearer"` claim. Called once the
 * signature is verified, so the header decodes.
 */
function isAccessToken(token: string, payload: JWTPayload): boolean {
  if (payload['typ'] !== undefined) return payload['typ'] === 'Bearer';
  return decodeProtectedHeader(token).typ === 'at+jwt';
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
function publicPart(jwk: JWK): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.includes(name)));
}

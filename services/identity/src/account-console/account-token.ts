import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type Provider from 'oidc-provider';
import { isUuid } from '@hush/common';
import { type EnvelopeKeys, looksLikeJwt, openAccessEnvelope } from '../oidc/token-envelope.js';

/** The person and the client a bearer token of the account REST API stands for. */
export interface AccountCaller {
  userId: string;
  clientId: string;
}

export interface AccountTokenDeps {
  provider: () => Provider;
  envelopeKeys: () => EnvelopeKeys;
  /** accessTokenLiveness: a verified JWT's jti not revoked, its grant and client still there. */
  isLive: (payload: JWTPayload) => Promise<boolean>;
}

/**
 * Which access tokens the account REST API takes: the ones our userinfo takes, that is any access
 * token we issued to a user with the `openid` scope, live (not expired, not revoked, its grant
 * and client still there). Keycloak asks instead for its `account` audience and the
 * `view-profile`/`manage-account` roles, which its default client scopes put in every user's
 * token; Hush has neither, and the rule above grants the same in practice: what keycloak-js gets
 * with default settings reads and updates its user's own profile, and nothing else does.
 */
export function accountTokenVerifier(deps: AccountTokenDeps) {
  return async function verify(value: string): Promise<AccountCaller | undefined> {
    if (!looksLikeJwt(value)) return undefined;
    let typ: unknown;
    try {
      typ = decodeProtectedHeader(value).typ;
    } catch {
      return undefined;
    }
    if (typ === 'JWT') {
      // An envelope: the stored access token behind it decides (oidc-provider checks its expiry).
      const id = await openAccessEnvelope(deps.envelopeKeys(), value);
      const provider = deps.provider();
      const token = id ? await provider.AccessToken.find(id) : undefined;
      if (!token?.accountId || !isUuid(token.accountId) || !token.scopes.has('openid')) return undefined;
      const grant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
      const clientId = String(token.clientId);
      if (!grant || grant.clientId !== clientId) return undefined;
      return { userId: token.accountId, clientId };
    }
    const keys = deps.envelopeKeys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(value, keys.verifyKeys, { issuer: keys.issuer, typ: 'at+jwt', algorithms: [...keys.signing.keys()], requiredClaims: ['exp'] }));
    } catch {
      return undefined;
    }
    const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
    const sub = payload.sub;
    const clientId = payload['client_id'];
    if (payload['typ'] !== 'Bearer' || !scopes.includes('openid') || typeof sub !== 'string' || !isUuid(sub) || typeof clientId !== 'string') return undefined;
    return (await deps.isLive(payload)) ? { userId: sub, clientId } : undefined;
  };
}

import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { IdentityUnavailableError, RevocationsUnavailableError } from '../errors.js';
import type { RevocationFeed } from '../revocations/revocation-feed.js';
import type { Principal } from './principal.js';
import { verifiedAddress } from './verified-address.js';

/**
 * Identity's JWT access tokens (RFC 9068), verified locally against its JWKS, which jose fetches
 * once and caches (refetching when an unknown `kid` appears, at most every 30 s). Checked: the
 * RS256 or ES256 signature (identity's two algorithms), `typ: at+jwt`, `iss`, `aud` (this API's
 * identifier) and `exp`; then that identity has not revoked it (its jti, its grant, its client),
 * in memory (ADR 10), nor the address it vouches for (verified-address.ts).
 */
export class AccessTokenVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly options: { jwksUrl: string; issuer: string; audience: string },
    private readonly revocations: Pick<RevocationFeed, 'status' | 'addressStatus'>,
  ) {
    this.jwks = createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000, timeoutDuration: 5_000 });
  }

  /** The caller, or undefined when the token is not one of ours (bad, expired, other audience...). */
  async verify(token: string): Promise<Principal | undefined> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        typ: 'at+jwt',
        algorithms: ['RS256', 'ES256'],
        requiredClaims: ['exp', 'client_id'],
      }));
    } catch (err) {
      // Identity being down is not the caller's fault: 503, not 401.
      if (jwksUnavailable(err)) throw new IdentityUnavailableError();
      return undefined;
    }
    const revocation = this.revocations.status(payload);
    if (revocation === 'revoked') return undefined;
    // Out of sync with identity's revocations: any token may have been revoked meanwhile (not the caller's fault).
    if (revocation === 'unknown') throw new RevocationsUnavailableError();
    const scopes = new Set(typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : []);
    const username = payload['username'];
    const clientId = payload['client_id'];
    // User tokens (authorization code) carry the username; client-credentials tokens do not.
    if (typeof username === 'string' && username !== '') return { custid: username, scopes, via: 'user_token', ...verifiedAddress(payload, this.revocations) };
    if (typeof clientId === 'string' && clientId !== '') return { custid: clientId, scopes, via: 'client_token' };
    return undefined;
  }
}

/** Network failures (fetch's TypeError, compared by name as it may come from another realm), timeouts, bad JWKS responses. */
function jwksUnavailable(err: unknown): boolean {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  if (err instanceof errors.JOSEError) return err.code === 'ERR_JOSE_GENERIC' && /JSON Web Key Set/.test(err.message);
  const e = err as { name?: unknown; message?: unknown } | null;
  return e?.name === 'TypeError' && typeof e.message === 'string' && /fetch failed/.test(e.message);
}

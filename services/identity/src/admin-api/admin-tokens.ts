import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { ADMIN_API_AUDIENCE, REALM_MANAGEMENT } from '../roles/index.js';
import type { AdminCaller } from './admin-caller.js';
import { SIGNING_ALGS } from '../keys/index.js';

/** What is checked of the caller beyond the signature: it still exists and is enabled. */
export interface CallerCheck {
  clientEnabled(clientId: string): Promise<boolean>;
  userEnabled(userId: string): Promise<boolean>;
}

/**
 * Verifies bearer tokens for the admin API with identity's own published keys (the set the
 * provider signs with, swapped on every key reload). Rules, as Keycloak's:
 * - any unexpired access token of this realm names a caller: an API access token (`typ: at+jwt`)
 *   or the envelope of an opaque one (`typ: JWT` with `typ: Bearer` inside, what a person's sign-in
 *   yields; oidc/token-envelope.ts), issuer this realm, signed with its keys;
 * - only a token whose audience is the admin API carries realm-management roles (tokens for other
 *   APIs never do, see access-token-claims.ts): any other token is a caller without rights, refused
 *   with 403 where a role is needed, not with 401;
 * - a token of a since deleted or disabled client or user names no one.
 * Anything else (none, garbage, another realm's, an ID or refresh token) is undefined: 401.
 */
export class AdminTokenVerifier {
  private keySet: ReturnType<typeof createLocalJWKSet> | undefined;

  constructor(
    private readonly issuer: string,
    private readonly check: CallerCheck,
  ) {}

  useKeys(privateJwks: readonly JWK[]): void {
    const publicJwks = privateJwks.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub);
    this.keySet = createLocalJWKSet({ keys: publicJwks });
  }

  async verify(token: string, ipAddress: string | undefined): Promise<AdminCaller | undefined> {
    const payload = await this.accessTokenOfRealm(token);
    if (!payload) return undefined;
    const named = payload['client_id'] ?? payload['azp'];
    const clientId = typeof named === 'string' ? named : undefined;
    const subject = payload.sub;
    if (!clientId || !subject) return undefined;
    const userId = subject === clientId ? undefined : subject;
    if (!(await this.check.clientEnabled(clientId))) return undefined;
    if (userId !== undefined && !(await this.check.userEnabled(userId))) return undefined;
    const forAdminApi = [payload.aud ?? []].flat().includes(ADMIN_API_AUDIENCE);
    const access = forAdminApi ? (payload['resource_access'] as Record<string, { roles?: unknown }> | undefined) : undefined;
    const roles = access?.[REALM_MANAGEMENT]?.roles;
    const organizationId = forAdminApi && typeof payload['organization_id'] === 'string' ? payload['organization_id'] : undefined;
    const roleSet = new Set(Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : []);
    return {
      subject,
      clientId,
      userId,
      roles: roleSet,
      organizationId: roleSet.has('realm-admin') ? undefined : organizationId,
      ipAddress,
    };
  }

  /** The claims of an unexpired access token (or access-token envelope) this realm signed; undefined for anything else. */
  private async accessTokenOfRealm(token: string): Promise<JWTPayload | undefined> {
    if (!this.keySet) return undefined;
    let typ: unknown;
    try {
      typ = decodeProtectedHeader(token).typ;
    } catch {
      return undefined;
    }
    if (typ !== 'at+jwt' && typ !== 'JWT') return undefined;
    try {
      const { payload } = await jwtVerify(token, this.keySet, { issuer: this.issuer, typ, algorithms: [...SIGNING_ALGS], requiredClaims: ['exp'] });
      return typ === 'at+jwt' || payload['typ'] === 'Bearer' ? payload : undefined;
    } catch {
      return undefined;
    }
  }
}

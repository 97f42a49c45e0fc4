import { createLocalJWKSet, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { ADMIN_API_AUDIENCE, REALM_MANAGEMENT } from '../roles/index.js';
import { SIGNING_ALGS } from '../keys/keys.js';
import type { AdminCaller } from './admin-caller.js';

/** What is checked of the caller beyond the signature: it still exists and is enabled. */
export interface CallerCheck {
  clientEnabled(clientId: string): Promise<boolean>;
  userEnabled(userId: string): Promise<boolean>;
}

/**
 * Verifies access tokens for the admin API with identity's own published keys (the set the
 * provider signs with, swapped on every key reload): issuer this realm, audience the admin API
 * (tokens for other APIs never carry admin roles, see access-token-claims.ts), an access token's
 * `typ`, unexpired. A token of a since deleted or disabled client or user is refused.
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
    if (!this.keySet) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keySet, { issuer: this.issuer, audience: ADMIN_API_AUDIENCE, typ: 'at+jwt', algorithms: [...SIGNING_ALGS] }));
    } catch {
      return undefined;
    }
    const clientId = typeof payload['client_id'] === 'string' ? payload['client_id'] : undefined;
    const subject = payload.sub;
    if (!clientId || !subject) return undefined;
    const userId = subject === clientId ? undefined : subject;
    if (!(await this.check.clientEnabled(clientId))) return undefined;
    if (userId !== undefined && !(await this.check.userEnabled(userId))) return undefined;
    const access = payload['resource_access'] as Record<string, { roles?: unknown }> | undefined;
    const roles = access?.[REALM_MANAGEMENT]?.roles;
    const organizationId = typeof payload['organization_id'] === 'string' ? payload['organization_id'] : undefined;
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
}

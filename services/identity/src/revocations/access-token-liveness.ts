import type Provider from 'oidc-provider';
import type { JWTPayload } from 'jose';
import type { Revocations } from './revocations.js';

/**
 * Whether identity still stands behind a verified JWT access token: its jti was not revoked, its
 * grant (`grant_id`) still exists and is its client's, and its client still exists. Introspection
 * and userinfo both ask this; the resource servers learn the same facts from ADR 10's events.
 */
export function accessTokenLiveness(provider: Provider, revocations: Pick<Revocations, 'isTokenRevoked'>) {
  return async (payload: JWTPayload): Promise<boolean> => {
    const { jti, client_id: clientId, grant_id: grantId } = payload;
    if (await revocations.isTokenRevoked(String(jti))) return false;
    if (typeof grantId === 'string') {
      const grant = await provider.Grant.find(grantId);
      if (!grant || grant.clientId !== clientId) return false;
    }
    return (await provider.Client.find(String(clientId))) !== undefined;
  };
}

import { createPublicKey } from 'node:crypto';
import type { JWK } from 'jose';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { PROTOCOL } from '../routes.js';

/**
 * Keycloak's realm document at the realm's root (`GET /auth/realms/public`), which older adapters
 * and some tools read for the realm's RS256 public key and its endpoints. Nothing here is secret;
 * `tokens-not-before` is 0, as Hush has no realm-wide "not before" push.
 */
export function realmInfo(issuer: string, jwks: JWK[]) {
  const rsa = jwks.find((k) => k.alg === 'RS256');
  const publicKey = rsa
    ? createPublicKey({ key: { kty: 'RSA', n: String(rsa.n), e: String(rsa.e) }, format: 'jwk' })
        .export({ type: 'spki', format: 'der' })
        .toString('base64')
    : undefined;
  const body = {
    realm: issuer.slice(issuer.lastIndexOf('/') + 1),
    public_key: publicKey,
    'token-service': `${issuer}${PROTOCOL}`,
    'account-service': `${issuer}/account`,
    'tokens-not-before': 0,
  };
  return async function serveRealmInfo(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if ((ctx.path !== '/' && ctx.path !== '') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('cache-control', 'no-cache');
    ctx.body = body;
  };
}

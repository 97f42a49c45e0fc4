import { createHmac, timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { KeyRing } from '@hush/common';
import { OIDC_SCOPES } from './scopes.js';

/**
 * Keycloak's adapters decode every token they are given: keycloak-js reads the refresh token's
 * `exp` and the access token's `sid`, keycloak-connect refuses a grant whose refresh token has no
 * `exp`. oidc-provider's refresh tokens, and its access tokens for no API (OpenID scopes only, for
 * userinfo), are opaque: random ids of rows in oidc_models (ADR 8).
 *
 * Those tokens travel in a signed JWT envelope whose `jti` is the stored token's id. The row stays
 * the only truth: rotation, reuse detection and revocation work on it exactly as before, and an
 * envelope is worth nothing once its row is gone. On the way in, an envelope is verified and
 * replaced by its `jti` (keycloak/token-request-forms.ts); a bare id is refused, so a `jti` read from a log or
 * decoded by an application cannot be used on its own.
 *
 * - Access-token envelopes are signed like the client's other tokens (RS256 or ES256, keys of the
 *   JWKS) with header `typ: JWT`, Keycloak's, so keycloak-connect verifies them; API access tokens
 *   keep oidc-provider's `typ: at+jwt`, which tells the two apart.
 * - Refresh-token envelopes (`typ: Refresh`, `Offline` with offline_access) are only ever read
 *   back by us: HS256 under a key derived from MASTER_KEY, as Keycloak signs refresh tokens with
 *   a realm secret (HS512). Microseconds, where a second RS256 signature per response would cost
 *   a millisecond.
 */
export interface EnvelopeKeys {
  issuer: string;
  /** The signing key of each algorithm: the first (active) one of the published set. */
  signing: Map<string, { kid: string; key: CryptoKey | Uint8Array }>;
  verifyKeys: ReturnType<typeof createLocalJWKSet>;
  refreshKeys: KeyRing;
}

export async function envelopeKeys(issuer: string, privateJwks: JWK[], refreshKeys: KeyRing): Promise<EnvelopeKeys> {
  const signing = new Map<string, { kid: string; key: CryptoKey | Uint8Array }>();
  for (const jwk of privateJwks) {
    if (!jwk.alg || !jwk.kid || signing.has(jwk.alg)) continue;
    signing.set(jwk.alg, { kid: jwk.kid, key: await importJWK(jwk, jwk.alg) });
  }
  const publicJwks = privateJwks.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub);
  return { issuer, signing, verifyKeys: createLocalJWKSet({ keys: publicJwks }), refreshKeys };
}

/** What an envelope says about its stored token (the claims Keycloak's tokens of that kind carry). */
export interface StoredTokenFacts {
  id: string;
  clientId: string;
  accountId?: string | undefined;
  scope?: string | undefined;
  sid?: string | undefined;
  iat: number;
  exp: number;
}

export async function accessTokenEnvelope(keys: EnvelopeKeys, alg: string, token: StoredTokenFacts, claims: Record<string, unknown>): Promise<string> {
  const signer = keys.signing.get(alg);
  if (!signer) throw new Error(`no active ${alg} signing key`);
  return new SignJWT({ ...claims, ...common(keys, token) }).setProtectedHeader({ alg, typ: 'JWT', kid: signer.kid }).sign(signer.key);
}

/**
 * HS256 written out with node:crypto (RFC 7515 §3.1 compact form): on every token response of a
 * client with refresh tokens, where jose's sign and verify would import the key through WebCrypto
 * each time.
 */
export function refreshTokenEnvelope(keys: EnvelopeKeys, token: StoredTokenFacts): Promise<string> {
  const offline = (token.scope ?? '').split(' ').includes('offline_access');
  const signingInput = `${REFRESH_HEADER}.${b64(JSON.stringify({ ...common(keys, token), aud: keys.issuer, typ: offline ? 'Offline' : 'Refresh' }))}`;
  return Promise.resolve(`${signingInput}.${hs256(keys.refreshKeys.newest.key, signingInput)}`);
}

const b64 = (json: string) => Buffer.from(json).toString('base64url');
const REFRESH_HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const hs256 = (key: Buffer, input: string) => createHmac('sha256', key).update(input).digest('base64url');

function common(keys: EnvelopeKeys, t: StoredTokenFacts): JWTPayload {
  return {
    jti: t.id,
    iss: keys.issuer,
    iat: t.iat,
    exp: t.exp,
    sub: t.accountId ?? t.clientId,
    azp: t.clientId,
    ...(t.sid ? { sid: t.sid } : {}),
    ...(t.scope ? { scope: t.scope } : {}),
  };
}

/** The stored id inside a refresh-token envelope, or undefined if `value` is not one of ours. */
export async function openRefreshEnvelope(keys: EnvelopeKeys, value: string): Promise<string | undefined> {
  const [header, body, signature, extra] = value.split('.');
  if (header !== REFRESH_HEADER || body === undefined || signature === undefined || extra !== undefined) return undefined;
  // Signed under the newest key of the MASTER_KEY ring; one signed before a rotation still opens.
  const given = Buffer.from(signature);
  const signedByRing = keys.refreshKeys.keys.some(({ key }) => {
    const expected = Buffer.from(hs256(key, `${header}.${body}`));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signedByRing) return undefined;
  let payload: JWTPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JWTPayload;
  } catch {
    return undefined;
  }
  // Expiry is the stored token's (oidc-provider checks it); the envelope's `exp` says the same.
  if (payload.iss !== keys.issuer || (payload.typ !== 'Refresh' && payload.typ !== 'Offline')) return undefined;
  return typeof payload.jti === 'string' ? payload.jti : undefined;
}

/** The stored id inside an access-token envelope (`typ: JWT` header), or undefined. */
export async function openAccessEnvelope(keys: EnvelopeKeys, value: string): Promise<string | undefined> {
  if (!isEnvelope(value)) return undefined;
  try {
    const { payload } = await jwtVerify(value, keys.verifyKeys, { issuer: keys.issuer, typ: 'JWT', algorithms: [...keys.signing.keys()] });
    return payload['typ'] === 'Bearer' && typeof payload.jti === 'string' ? payload.jti : undefined;
  } catch {
    return undefined;
  }
}

/** Either envelope's stored id (introspection and revocation take any token). */
export async function openEnvelope(keys: EnvelopeKeys, value: string): Promise<string | undefined> {
  return (await openRefreshEnvelope(keys, value)) ?? (await openAccessEnvelope(keys, value));
}

/** An envelope's header says `typ: JWT`; API access tokens say `at+jwt`. */
function isEnvelope(value: string): boolean {
  try {
    return decodeProtectedHeader(value).typ === 'JWT';
  } catch {
    return false;
  }
}

export const looksLikeJwt = (value: string): boolean => value.split('.').length === 3;

/** The OpenID scopes in a space-separated scope string. */
export const oidcScopesOf = (scope: string | undefined): string[] => (scope ?? '').split(' ').filter((s) => OIDC_SCOPES.includes(s));

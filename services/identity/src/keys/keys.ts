import { ConfigError, deriveKey, isUniqueViolation, open, randomToken, seal } from '@hush/common';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { KeysRepository, SigningKeyRow } from './keys.repository.js';

/** ES256: a signature costs ~50 µs, against ~1 ms for RS256, and the token endpoint signs on every call. */
export const SIGNING_ALG = 'ES256';

/**
 * Private signing keys are sealed with AES-256-GCM under a key derived from MASTER_KEY and bound
 * to their kid, so a database dump alone yields no usable signing key.
 */
export class SigningKeys {
  private readonly sealingKey: Buffer;

  constructor(
    private readonly repository: KeysRepository,
    masterKey: Buffer,
  ) {
    this.sealingKey = deriveKey(masterKey, 'hush identity signing keys v1');
  }

  /** Generates a key in the given status; returns its kid. */
  async add(status: 'next' | 'active'): Promise<string> {
    const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const kid = randomToken(12);
    const jwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
    const { d: _private, ...publicJwk } = jwk;
    await this.repository.insert({
      kid,
      alg: SIGNING_ALG,
      status,
      publicJwk,
      privateJwkSealed: seal(this.sealingKey, JSON.stringify(jwk), `signing-key:${kid}`),
    });
    return kid;
  }

  /** First start of an empty database: one active key. Safe when several processes race. */
  async ensureActive(): Promise<void> {
    const keys = await this.repository.list();
    if (keys.some((k) => k.status === 'active')) return;
    try {
      await this.add('active');
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }

  /** Private JWKs for oidc-provider, active first; every one of them is published in the JWKS. */
  async privateJwks(): Promise<JWK[]> {
    const keys = await this.repository.list();
    return keys.map((k) => this.unseal(k));
  }

  list(): Promise<SigningKeyRow[]> {
    return this.repository.list();
  }

  private unseal(key: SigningKeyRow): JWK {
    try {
      return JSON.parse(open(this.sealingKey, key.privateJwkSealed, `signing-key:${key.kid}`).toString('utf8')) as JWK;
    } catch {
      // AES-GCM authentication failed: not this database's key (or a tampered row).
      throw new ConfigError(`MASTER_KEY cannot decrypt signing key ${key.kid}: it is not the key this database was set up with`);
    }
  }
}

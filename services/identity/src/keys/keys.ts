import { ConfigError, isUniqueViolation, randomToken, type KeyRing } from '@hush/common';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { KeysRepository, SigningKeyRow } from './keys.repository.js';
import type { LoadedKey } from './keys.metrics.js';
import { KEY_LABELS } from '../key-labels.js';

/**
 * The algorithms tokens are signed with; each has its own active key (ADR 4). RS256 is what
 * Keycloak signs with by default and what OpenID Connect Discovery requires every provider to
 * offer; ES256 is ~20 times cheaper to sign with (~50 µs against ~1 ms).
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * Private signing keys are sealed with AES-256-GCM under a key derived from MASTER_KEY and bound
 * to their kid, so a database dump alone yields no usable signing key. Sealed under the newest
 * key of the MASTER_KEY ring; `rewrap` moves one under it.
 */
export class SigningKeys {
  private readonly sealingKeys: KeyRing;
  private loadedKeys: readonly LoadedKey[] = [];

  constructor(
    private readonly repository: KeysRepository,
    masterKeys: KeyRing,
  ) {
    this.sealingKeys = masterKeys.derive(KEY_LABELS.signingKeys);
  }

  /** Generates a key of `alg` in the given status; returns its kid. */
  async add(status: 'next' | 'active', alg: SigningAlg): Promise<string> {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const kid = randomToken(12);
    const jwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
    await this.repository.insert({
      kid,
      alg,
      status,
      publicJwk,
      privateJwkSealed: this.sealingKeys.seal(JSON.stringify(jwk), `signing-key:${kid}`),
    });
    return kid;
  }

  /**
   * One active key per algorithm: on the first start of an empty database, and on the first start
   * of a database from before RS256 (which has only an ES256 key). Safe when several processes race.
   */
  async ensureActive(): Promise<void> {
    const keys = await this.repository.list();
    for (const alg of SIGNING_ALGS) {
      if (keys.some((k) => k.status === 'active' && k.alg === alg)) continue;
      try {
        await this.add('active', alg);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
  }

  /** Private JWKs for oidc-provider, active first; every one of them is published in the JWKS. */
  async privateJwks(): Promise<JWK[]> {
    const keys = await this.repository.list();
    const jwks = keys.map((k) => this.unseal(k));
    this.loadedKeys = keys.map(({ alg, status, createdAt, activatedAt }) => ({ alg, status, createdAt, activatedAt }));
    return jwks;
  }

  /** The keys the last privateJwks() loaded (what this process signs and verifies with), without their private parts. */
  loaded(): readonly LoadedKey[] {
    return this.loadedKeys;
  }

  /** A stored private key under the newest key of the ring (for the rewrap); throws when no key of the ring opens it. */
  rewrap(kid: string, sealed: Buffer): Buffer {
    return this.sealingKeys.rewrap(sealed, `signing-key:${kid}`);
  }

  list(): Promise<SigningKeyRow[]> {
    return this.repository.list();
  }

  private unseal(key: SigningKeyRow): JWK {
    try {
      return JSON.parse(this.sealingKeys.open(key.privateJwkSealed, `signing-key:${key.kid}`).toString('utf8')) as JWK;
    } catch {
      // AES-GCM authentication failed: not this database's key (or a tampered row).
      throw new ConfigError(
        `MASTER_KEY cannot decrypt signing key ${key.kid}: it is not the key this database was set up with (nor is any key of MASTER_KEYS_PREVIOUS). ` +
          'Set MASTER_KEY (or MASTER_KEY_FILE) to the key it was set up with, from your key backup; to start afresh instead, point DATABASE_URL at a new, empty database.',
      );
    }
  }
}

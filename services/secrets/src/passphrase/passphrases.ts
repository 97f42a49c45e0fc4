import { constantTimeEqual, sha256 } from '@hush/common';
import type { BcryptPool } from './bcrypt-pool.js';

/**
 * Passphrases are kept only as bcrypt hashes. bcrypt reads just the first 72 bytes, so
 * the input is SHA-256(passphrase) in base64 (44 characters): every character of a long
 * passphrase counts. Verification re-hashes with the stored salt in a worker thread and compares
 * the two hashes in constant time.
 */
const prehash = (passphrase: string) => sha256(passphrase).toString('base64');

export class Passphrases {
  constructor(
    private readonly pool: BcryptPool,
    private readonly cost: number,
  ) {}

  hash(passphrase: string): Promise<string> {
    return this.pool.hash(prehash(passphrase), this.cost);
  }

  async verify(passphrase: string, hash: string): Promise<boolean> {
    const candidate = await this.pool.hash(prehash(passphrase), hash.slice(0, 29));
    return constantTimeEqual(candidate, hash);
  }
}

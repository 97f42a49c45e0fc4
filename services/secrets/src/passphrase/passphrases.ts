import { sha256, type BcryptPool } from '@hush/common';

/**
 * Passphrases are kept only as bcrypt hashes, made and checked in the shared bcrypt pool's worker
 * threads (@hush/common bcrypt-pool.ts). bcrypt reads just the first 72 bytes, so the input is
 * SHA-256(passphrase) in base64 (44 characters): every character of a long passphrase counts.
 * When the pool is full a passphrase is refused at once (BcryptPoolBusyError: 503 with
 * Retry-After), and a check takes its place in the pool before the attempt it spends
 * (`checking`), so a busy service never uses up an attempt it did not check.
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

  /**
   * Takes a place in the pool (BcryptPoolBusyError when full), then runs `use` with a check of one
   * passphrase against one hash in that place; the place is given back if `use` never checks.
   */
  async checking<T>(use: (verify: (passphrase: string, hash: string) => Promise<boolean>) => Promise<T>): Promise<T> {
    const place = this.pool.reserve();
    try {
      return await use((passphrase, hash) => place.compare(prehash(passphrase), hash));
    } finally {
      place.release();
    }
  }
}

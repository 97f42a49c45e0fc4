import type { TokenOwner } from './api-tokens.repository.js';

/**
 * Valid API tokens seen recently, by token hash (never the token), so Basic authentication skips
 * the database; bounded, oldest evicted first. Zero seconds turns it off (revocations and plan
 * changes then apply on the very next request on every replica).
 */
export class TokenCache {
  private readonly entries = new Map<string, { owner: TokenOwner; until: number }>();

  constructor(
    private readonly seconds: number,
    private readonly max = 10_000,
  ) {}

  get(hash: string): TokenOwner | undefined {
    const entry = this.entries.get(hash);
    return entry && entry.until > Date.now() ? entry.owner : undefined;
  }

  set(hash: string, owner: TokenOwner): void {
    if (this.seconds <= 0) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { owner, until: Date.now() + this.seconds * 1000 });
  }

  /** A revoked token stops working here at once (other replicas forget it when its entry expires). */
  forget(tokenId: string): void {
    for (const [hash, entry] of this.entries) if (entry.owner.tokenId === tokenId) this.entries.delete(hash);
  }
}

import { addressKey, revocationKey, type Revocation } from '@hush/common';

/** The claims of a verified access token that a revocation can name. */
export interface RevocableClaims {
  jti?: unknown;
  iat?: unknown;
  client_id?: unknown;
  grant_id?: unknown;
}

/** The claims of a verified access token that an address revocation is about. */
export interface AddressClaims {
  sub?: unknown;
  iat?: unknown;
  email?: unknown;
}

/**
 * The revocations identity announced (ADR 10), in memory: the per-request check is map lookups,
 * and a SHA-256 of the jti or grant id only while some token or grant is revoked. Each entry is
 * kept until `until` (epoch seconds), when every token it refuses has expired anyway.
 */
export class RevocationList {
  private readonly tokens = new Map<string, number>();
  private readonly grants = new Map<string, number>();
  /** client_id → the latest `notBefore` announced for it, and until when it matters. */
  private readonly clients = new Map<string, { notBefore: number; until: number }>();
  /** sub → the latest address change announced for the user: when, the address proven since (its key), until when it matters. */
  private readonly addresses = new Map<string, { notBefore: number; proves: string | null; until: number }>();

  add(revocation: Revocation, until: number): void {
    switch (revocation.kind) {
      case 'token':
        this.tokens.set(revocation.key, Math.max(until, this.tokens.get(revocation.key) ?? 0));
        return;
      case 'grant':
        this.grants.set(revocation.key, Math.max(until, this.grants.get(revocation.key) ?? 0));
        return;
      case 'client':
        this.clients.set(revocation.clientId, later(this.clients.get(revocation.clientId), revocation.notBefore, until));
        return;
      case 'address': {
        const known = this.addresses.get(revocation.sub);
        this.addresses.set(revocation.sub, { ...later(known, revocation.notBefore, until), proves: provenSince(known, revocation) });
        return;
      }
    }
  }

  /** Whether a revocation refuses the token with these claims. */
  revokes(claims: RevocableClaims): boolean {
    const { jti, grant_id: grantId, client_id: clientId, iat } = claims;
    if (this.tokens.size > 0 && typeof jti === 'string' && this.tokens.has(revocationKey(jti))) return true;
    if (this.grants.size > 0 && typeof grantId === 'string' && this.grants.has(revocationKey(grantId))) return true;
    if (this.clients.size > 0 && typeof clientId === 'string') {
      const client = this.clients.get(clientId);
      // A token without iat cannot show it was issued after the client was deleted.
      if (client && (typeof iat !== 'number' || iat <= client.notBefore)) return true;
    }
    return false;
  }

  /**
   * Whether the address a token with these claims vouches for is proven no more: the account's
   * address changed (or was unverified) since the token was issued, to another than the one it claims.
   */
  withdrawsAddress(claims: AddressClaims): boolean {
    if (this.addresses.size === 0 || typeof claims.sub !== 'string') return false;
    const change = this.addresses.get(claims.sub);
    // As for clients: a token without iat cannot show it was issued after the change.
    if (!change || (typeof claims.iat === 'number' && claims.iat > change.notBefore)) return false;
    return change.proves === null || typeof claims.email !== 'string' || addressKey(claims.email) !== change.proves;
  }

  /** Drops what no longer matters; returns how many entries remain. */
  prune(nowSeconds: number): number {
    for (const map of [this.tokens, this.grants]) for (const [key, until] of map) if (until < nowSeconds) map.delete(key);
    for (const map of [this.clients, this.addresses]) for (const [key, { until }] of map) if (until < nowSeconds) map.delete(key);
    return this.size;
  }

  get size(): number {
    return this.tokens.size + this.grants.size + this.clients.size + this.addresses.size;
  }
}

/** What the account proves after the latest change; after two in one second (their order unknown), what both say, else nothing. */
function provenSince(known: { notBefore: number; proves: string | null } | undefined, change: { notBefore: number; proves: string | null }): string | null {
  if (!known || change.notBefore > known.notBefore) return change.proves;
  if (change.notBefore < known.notBefore) return known.proves;
  return known.proves === change.proves ? known.proves : null;
}

/** The latest `notBefore` announced for one client or user, and the latest `until`. */
function later(known: { notBefore: number; until: number } | undefined, notBefore: number, until: number): { notBefore: number; until: number } {
  return { notBefore: Math.max(notBefore, known?.notBefore ?? 0), until: Math.max(until, known?.until ?? 0) };
}

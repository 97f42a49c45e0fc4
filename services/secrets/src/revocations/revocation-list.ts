import { revocationKey, type Revocation } from '@hush/common';

/** The claims of a verified access token that a revocation can name. */
export interface RevocableClaims {
  jti?: unknown;
  iat?: unknown;
  client_id?: unknown;
  grant_id?: unknown;
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

  add(revocation: Revocation, until: number): void {
    switch (revocation.kind) {
      case 'token':
        this.tokens.set(revocation.key, Math.max(until, this.tokens.get(revocation.key) ?? 0));
        return;
      case 'grant':
        this.grants.set(revocation.key, Math.max(until, this.grants.get(revocation.key) ?? 0));
        return;
      case 'client': {
        const known = this.clients.get(revocation.clientId);
        this.clients.set(revocation.clientId, {
          notBefore: Math.max(revocation.notBefore, known?.notBefore ?? 0),
          until: Math.max(until, known?.until ?? 0),
        });
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

  /** Drops what no longer matters; returns how many entries remain. */
  prune(nowSeconds: number): number {
    for (const map of [this.tokens, this.grants]) for (const [key, until] of map) if (until < nowSeconds) map.delete(key);
    for (const [key, { until }] of this.clients) if (until < nowSeconds) this.clients.delete(key);
    return this.size;
  }

  get size(): number {
    return this.tokens.size + this.grants.size + this.clients.size;
  }
}

import { Redis } from 'ioredis';
import { encodeRevocation, revocationKey, type Revocation } from '@hush/common';
import { MAX_ACCESS_TOKEN_TTL } from '../apis/apis.js';

/**
 * Identity's side of ADR 10: each revocation an access token can outlive is written to the Redis
 * sorted set `channel` (kept until every token it refuses has expired) and announced on the pub/sub
 * channel of the same name, in one MULTI, so a resource server that loads the set after
 * subscribing misses nothing. A write that fails throws: the caller's operation fails with it
 * (503), rather than reporting a revocation the resource servers never heard of.
 */
export class Revocations {
  private own: Redis | undefined;

  /** `redis`: the service's connection; absent (the admin CLI), one is opened on first use and closed by close(). */
  constructor(
    private readonly channel: string,
    private readonly redis: Redis | { url: string; timeoutMs: number },
  ) {}

  /** One access token, until its `exp`. */
  revokeToken(jti: string, exp: number): Promise<void> {
    return this.publish({ kind: 'token', key: revocationKey(jti) }, exp);
  }

  /** Every access token issued under the grant (code replay, refresh token reuse or revocation, logout). */
  revokeGrant(grantId: string): Promise<void> {
    return this.publish({ kind: 'grant', key: revocationKey(grantId) }, now() + MAX_ACCESS_TOKEN_TTL);
  }

  /** Every token of the client issued up to now (the client is being deleted). */
  revokeClient(clientId: string): Promise<void> {
    const at = now();
    return this.publish({ kind: 'client', clientId, notBefore: at }, at + MAX_ACCESS_TOKEN_TTL);
  }

  /** Whether the access token with this jti was revoked (introspection). */
  async isTokenRevoked(jti: string): Promise<boolean> {
    const until = await this.connection().zscore(this.channel, encodeRevocation({ kind: 'token', key: revocationKey(jti) }));
    return until !== null && Number(until) >= now();
  }

  async close(): Promise<void> {
    const own = this.own;
    this.own = undefined;
    if (own) await own.quit().catch(() => own.disconnect());
  }

  private async publish(revocation: Revocation, until: number): Promise<void> {
    const member = encodeRevocation(revocation);
    const results = await this.connection()
      .multi()
      // Forget what no longer matters (every token it could refuse has expired): the set stays bounded.
      .zremrangebyscore(this.channel, '-inf', `(${now()}`)
      .zadd(this.channel, 'GT', until, member)
      .expire(this.channel, MAX_ACCESS_TOKEN_TTL + 60)
      .publish(this.channel, `${until} ${member}`)
      .exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error('revocation not written');
  }

  private connection(): Redis {
    if ('url' in this.redis) {
      this.own ??= new Redis(this.redis.url, { maxRetriesPerRequest: 1, connectTimeout: this.redis.timeoutMs, commandTimeout: this.redis.timeoutMs });
      return this.own;
    }
    return this.redis;
  }
}

const now = () => Math.floor(Date.now() / 1000);

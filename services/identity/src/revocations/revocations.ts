import { Redis } from 'ioredis';
import { addressKey, closeRedis, encodeRevocation, outageLog, revocationKey, type Logger, type OutageLog, type Revocation } from '@hush/common';
import { MAX_ACCESS_TOKEN_TTL } from '../apis/index.js';

/**
 * Identity's side of ADR 10: each revocation an access token can outlive is written to the Redis
 * sorted set `channel` (kept until every token it refuses has expired) and announced on the pub/sub
 * channel of the same name, in one MULTI, so a resource server that loads the set after
 * subscribing misses nothing.
 *
 * The answer matches what happened:
 * - an access token's revocation lives in Redis alone, and a client's is announced before the
 *   client is deleted: a write that fails throws, and the caller answers 503 (RFC 7009 §2.2.1: the
 *   client may assume the token was not revoked and retry) or the CLI command fails;
 * - a grant's revocation has taken effect in PostgreSQL before it is announced (its refresh token
 *   or code is gone), as has an address's (the account's address changed or is unverified): its
 *   caller succeeds whatever Redis does. In the service, an
 *   announcement Redis did not take is kept and written again every second until it lands (the
 *   resource servers refuse every token while their feed is down, so nothing slips through
 *   meanwhile), and the outage is logged once, with a count, when it ends. The admin CLI, whose
 *   process ends with the command, throws instead, so the operator knows to run it again.
 */
export class Revocations {
  private own: Redis | undefined;
  /** Announcements Redis has not taken yet: member → until (unix seconds). */
  private readonly pending = new Map<string, number>();
  private retry: NodeJS.Timeout | undefined;
  private readonly outage: OutageLog | undefined;
  private readonly logger: Logger | undefined;

  /**
   * `redis`: the service's connection; absent (the admin CLI), one is opened on first use and
   * closed by close(). `logger`: the service's, which turns on the background retry of announcements.
   */
  constructor(
    private readonly channel: string,
    private readonly redis: Redis | { url: string; timeoutMs: number },
    logger?: Logger,
  ) {
    this.outage = logger ? outageLog(logger, 'redis') : undefined;
    this.logger = logger;
  }

  /** One access token, until its `exp`. */
  revokeToken(jti: string, exp: number): Promise<void> {
    return this.publish({ kind: 'token', key: revocationKey(jti) }, exp);
  }

  /** Every access token issued under the grant (code replay, refresh token reuse or revocation, logout). */
  revokeGrant(grantId: string): Promise<void> {
    return this.announce({ kind: 'grant', key: revocationKey(grantId) }, now() + MAX_ACCESS_TOKEN_TTL);
  }

  /**
   * The user's tokens issued up to now prove no address but `proves` (the verified address the
   * account has now, if any): the address changed, or is unverified. Announced once the change is
   * in PostgreSQL, as a grant's revocation (see the class comment).
   */
  revokeAddress(sub: string, proves: string | null): Promise<void> {
    const at = now();
    return this.announce({ kind: 'address', sub, notBefore: at, proves: proves === null ? null : addressKey(proves) }, at + MAX_ACCESS_TOKEN_TTL);
  }

  /** Every token of the client issued up to now (the client is being deleted). */
  revokeClient(clientId: string): Promise<void> {
    const at = now();
    // Announced before the client is deleted (clients.ts): a failure must keep the client.
    return this.publish({ kind: 'client', clientId, notBefore: at }, at + MAX_ACCESS_TOKEN_TTL);
  }

  /** Announcements still waiting for Redis (tests, metrics). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Whether the access token with this jti was revoked (introspection). */
  async isTokenRevoked(jti: string): Promise<boolean> {
    const until = await this.connection().zscore(this.channel, encodeRevocation({ kind: 'token', key: revocationKey(jti) }));
    return until !== null && Number(until) >= now();
  }

  /** Stops the retries (closing the connection if it is this object's own); says what never reached Redis. */
  async close(): Promise<void> {
    if (this.retry) clearInterval(this.retry);
    this.retry = undefined;
    if (this.pending.size > 0) {
      // Those grants are gone in PostgreSQL, but their access tokens are not refused by the resource servers until they expire.
      this.logger?.error(
        { pending: this.pending.size },
        'stopping with grant revocations Redis never took; their access tokens stay valid at the resource servers until they expire',
      );
    }
    const own = this.own;
    this.own = undefined;
    if (own) await closeRedis(own);
  }

  private publish(revocation: Revocation, until: number): Promise<void> {
    return this.write([[encodeRevocation(revocation), until]]);
  }

  /** A revocation that already took effect in PostgreSQL: see the class comment. */
  private async announce(revocation: Revocation, until: number): Promise<void> {
    const member = encodeRevocation(revocation);
    try {
      await this.write([[member, until]]);
      this.outage?.recovered();
    } catch (err) {
      if (!this.outage) throw err;
      this.outage.failed(err);
      this.pending.set(member, Math.max(until, this.pending.get(member) ?? 0));
      this.retry ??= setInterval(() => void this.flush(), RETRY_MS);
      this.retry.unref();
    }
  }

  /** Writes every pending announcement again, in one MULTI; idempotent (ZADD GT, and a duplicate message is harmless). */
  private async flush(): Promise<void> {
    const batch = [...this.pending];
    if (batch.length === 0) return;
    try {
      await this.write(batch);
    } catch (err) {
      this.outage?.failed(err);
      return;
    }
    for (const [member, until] of batch) if (this.pending.get(member) === until) this.pending.delete(member);
    this.outage?.recovered();
    if (this.pending.size === 0 && this.retry) {
      clearInterval(this.retry);
      this.retry = undefined;
    }
  }

  private async write(revocations: [member: string, until: number][]): Promise<void> {
    // Forget what no longer matters (every token it could refuse has expired): the set stays bounded.
    const multi = this.connection().multi().zremrangebyscore(this.channel, '-inf', `(${now()}`);
    for (const [member, until] of revocations) multi.zadd(this.channel, 'GT', until, member);
    multi.expire(this.channel, MAX_ACCESS_TOKEN_TTL + 60);
    for (const [member, until] of revocations) multi.publish(this.channel, `${until} ${member}`);
    const results = await multi.exec();
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

/** How often announcements Redis did not take are written again (ms). */
const RETRY_MS = 1000;

import { Redis } from 'ioredis';
import { decodeRevocation, decodeRevocationMessage, dropRedis, timedOut, withTimeout, type Logger } from '@hush/common';
import { RevocationList, type AddressClaims, type RevocableClaims } from './revocation-list.js';

export type RevocationStatus = 'valid' | 'revoked' | 'unknown';

export interface RevocationFeedOptions {
  redisUrl: string;
  /** The Redis sorted set and pub/sub channel identity writes to (REVOCATIONS_CHANNEL). */
  channel: string;
  /**
   * How long the feed is trusted without proof that it is alive (ms). A heartbeat PING on the
   * subscribed connection every quarter of it proves that every message published before the PING
   * has arrived (Redis answers on one connection in order).
   */
  maxLagMs: number;
  /** Longest wait for Redis to connect or answer (ms). */
  timeoutMs: number;
}

/**
 * Secrets' side of ADR 10: identity's revocations, followed over Redis pub/sub and kept in memory,
 * so checking a bearer token costs no network call.
 *
 * In sync, and only then, `status` answers `valid` or `revoked`:
 * - on every (re)connection the feed subscribes first, then loads the whole set; anything published
 *   in between arrives both ways, and adding twice is harmless. In sync from the moment the load
 *   was sent;
 * - a closed connection ends the sync at once; a silent one (no FIN, no RST) is found out by the
 *   heartbeat: past `maxLagMs` since the last confirmed moment, every token is `unknown`;
 * - `unknown` (never synced, or lost) is refused by the caller with a 503: any token may have been
 *   revoked meanwhile. The next successful load ends it.
 */
export class RevocationFeed {
  private readonly list = new RevocationList();
  private subscriber: Redis | undefined;
  /** Every revocation published before this moment (epoch ms) is in the list; undefined: not in sync. */
  private confirmedAt: number | undefined;
  /** Bumped whenever the sync is lost: work of an older connection attempt is dropped. */
  private generation = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  private stopped = false;
  private beats = 0;

  constructor(
    /** The service's connection, for loading the set (a subscribed connection runs no other command). */
    private readonly redis: Redis,
    private readonly options: RevocationFeedOptions,
    private readonly logger: Logger,
  ) {}

  /** One clock read and a few map lookups: nothing goes over the network. */
  status(claims: RevocableClaims): RevocationStatus {
    if (!this.inSync()) return 'unknown';
    return this.list.revokes(claims) ? 'revoked' : 'valid';
  }

  /** As `status`, for the address a user's token vouches for: `revoked` when it changed since the token was issued. */
  addressStatus(claims: AddressClaims): RevocationStatus {
    if (!this.inSync()) return 'unknown';
    return this.list.withdrawsAddress(claims) ? 'revoked' : 'valid';
  }

  private inSync(): boolean {
    const confirmed = this.confirmedAt;
    return confirmed !== undefined && Date.now() - confirmed <= this.options.maxLagMs;
  }

  /**
   * Connects and waits for the first load, at most `maxLagMs`: without Redis the service still
   * starts, and refuses bearer tokens until the feed is in sync.
   */
  async start(): Promise<void> {
    const subscriber = new Redis(this.options.redisUrl, {
      lazyConnect: true,
      autoResubscribe: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: null,
      connectTimeout: this.options.timeoutMs,
      // Dropped at once, as the service's own connection (connectRedis).
      disconnectTimeout: 0,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    });
    this.subscriber = subscriber;
    subscriber.on('message', (_channel: string, message: string) => this.apply(message));
    subscriber.on('ready', () => void this.sync(subscriber));
    subscriber.on('close', () => this.lost('connection closed'));
    subscriber.on('error', () => undefined); // each failure also closes the connection: reported by lost()
    const first = new Promise<void>((resolve) => this.waiters.push(resolve));
    subscriber.connect().catch(() => undefined);
    await withTimeout(first, this.options.maxLagMs, () => undefined);
  }

  close(): void {
    this.stopped = true;
    this.generation++;
    this.confirmedAt = undefined;
    clearTimeout(this.heartbeat);
    if (this.subscriber) dropRedis(this.subscriber);
    this.subscriber = undefined;
  }

  private async sync(subscriber: Redis): Promise<void> {
    const attempt = ++this.generation;
    try {
      await withTimeout(subscriber.subscribe(this.options.channel), this.options.timeoutMs, timedOut);
      const sentAt = Date.now();
      const entries = await withTimeout(this.redis.zrangebyscore(this.options.channel, Math.floor(sentAt / 1000), '+inf', 'WITHSCORES'), this.options.timeoutMs, timedOut);
      if (attempt !== this.generation) return;
      for (let i = 0; i + 1 < entries.length; i += 2) {
        const revocation = decodeRevocation(entries[i] as string);
        if (revocation) this.list.add(revocation, Number(entries[i + 1]));
      }
      this.confirmedAt = sentAt;
      this.logger.info({ revocations: this.list.size }, 'revocations loaded; following identity');
      for (const resolve of this.waiters.splice(0)) resolve();
      this.beat(subscriber, attempt);
    } catch (err) {
      if (attempt !== this.generation || this.stopped) return;
      this.logger.warn({ err: (err as Error).message }, 'revocations could not be loaded; retrying');
      subscriber.disconnect(true);
    }
  }

  private beat(subscriber: Redis, attempt: number): void {
    this.heartbeat = setTimeout(() => {
      const sentAt = Date.now();
      withTimeout(subscriber.ping(), this.options.maxLagMs, timedOut).then(
        () => {
          if (attempt !== this.generation) return;
          this.confirmedAt = sentAt;
          if (++this.beats % 64 === 0) this.list.prune(Math.floor(sentAt / 1000));
          this.beat(subscriber, attempt);
        },
        () => {
          if (attempt !== this.generation) return;
          this.lost('heartbeat unanswered');
          subscriber.disconnect(true);
        },
      );
    }, this.options.maxLagMs / 4);
    this.heartbeat.unref();
  }

  private apply(message: string): void {
    const event = decodeRevocationMessage(message);
    if (event) this.list.add(event.revocation, event.until);
  }

  private lost(reason: string): void {
    clearTimeout(this.heartbeat);
    if (this.stopped) return;
    this.generation++;
    if (this.confirmedAt === undefined) return;
    this.confirmedAt = undefined;
    this.logger.warn({ reason }, 'revocation feed lost; bearer tokens are refused until it is back');
  }
}

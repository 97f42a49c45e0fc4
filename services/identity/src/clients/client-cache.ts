import pg from 'pg';
import type { Logger } from '@hush/common';
import type { Client } from './clients.repository.js';
import { CLIENTS_CHANNEL } from './clients.repository.js';

/** What the token endpoint needs of the clients table. */
export interface ClientLookup {
  find(clientId: string): Promise<Client | undefined>;
}

export interface ClientCacheOptions {
  /** Upper bound on the age of an entry, should a change ever go unannounced (seconds). */
  maxAgeSeconds?: number;
  /** How often the listening connection proves it is alive (seconds). */
  heartbeatSeconds?: number;
  /** First wait before reconnecting a lost listener (milliseconds; doubles up to 10 s). */
  reconnectMs?: number;
}

/**
 * Client records kept in process memory, so a token request does not read the clients table.
 * Rules that keep a changed, rotated or deleted client from being served stale:
 * - A trigger on `clients` and `organizations` (migration 20261122010000_clients_notify) sends a
 *   NOTIFY on CLIENTS_CHANNEL inside the writing transaction, whoever writes (the CLI, SQL by
 *   hand), which PostgreSQL delivers to every replica's listener at commit; the notified client
 *   (or, for `*`, every client) is dropped at once.
 * - Memory is used only while this process's LISTEN connection is up and answering heartbeats.
 *   When it fails, everything is dropped and lookups go to the database until it is back.
 * - A lookup that was in flight when a notification arrived is not stored (it may predate it).
 * - An entry is re-read after `maxAgeSeconds` at the latest, whatever happens.
 * - Unknown client ids are never cached, so random ids cannot grow memory.
 */
export class ClientCache implements ClientLookup {
  private readonly entries = new Map<string, { client: Client; expires: number }>();
  /** Bumped by every invalidation: an older lookup must not store its result. */
  private generation = 0;
  private listener: pg.Client | undefined;
  private live = false;
  private stopped = false;
  private retryMs: number;
  private readonly firstRetryMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly maxAgeMs: number;
  private readonly heartbeatMs: number;

  constructor(
    private readonly source: ClientLookup,
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    options: ClientCacheOptions = {},
  ) {
    this.maxAgeMs = (options.maxAgeSeconds ?? 30) * 1000;
    this.heartbeatMs = (options.heartbeatSeconds ?? 5) * 1000;
    this.firstRetryMs = this.retryMs = options.reconnectMs ?? 250;
  }

  async find(clientId: string): Promise<Client | undefined> {
    if (this.live) {
      const hit = this.entries.get(clientId);
      if (hit && hit.expires > Date.now()) return hit.client;
    }
    const generation = this.generation;
    const client = await this.source.find(clientId);
    if (client && this.live && generation === this.generation) {
      this.entries.set(clientId, { client, expires: Date.now() + this.maxAgeMs });
    }
    return client;
  }

  /** Connects the listener; lookups read through to the database until it is up. */
  async start(): Promise<void> {
    await this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.goStale();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const listener = this.listener;
    this.listener = undefined;
    void listener?.end().catch(() => undefined);
  }

  /**
   * Drops a client at once, for a change this process made itself: the change's NOTIFY reaches
   * this process's listener a moment after the commit, and a request in that moment must not be
   * served the old record.
   */
  forget(clientId: string): void {
    this.invalidate(clientId);
  }

  private invalidate(clientId: string): void {
    this.generation++;
    if (clientId === '*') this.entries.clear();
    else this.entries.delete(clientId);
  }

  private goStale(): void {
    this.live = false;
    this.generation++;
    this.entries.clear();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const listener = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true, application_name: 'identity client cache' });
    this.listener = listener;
    const fail = (err: Error) => this.lost(listener, err);
    listener.on('error', fail);
    listener.on('end', () => this.lost(listener, new Error('connection ended')));
    listener.on('notification', (n) => {
      if (n.channel === CLIENTS_CHANNEL) this.invalidate(n.payload ?? '*');
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CLIENTS_CHANNEL}`);
    } catch (err) {
      this.lost(listener, err as Error);
      return;
    }
    if (this.listener !== listener) return;
    this.goStale(); // nothing read before LISTEN took effect is trusted
    this.live = true;
    this.retryMs = this.firstRetryMs;
    this.schedule(() => void this.heartbeat(listener), this.heartbeatMs);
  }

  /** A silently dead connection (no FIN, no RST) would stop notifications without an error. */
  private async heartbeat(listener: pg.Client): Promise<void> {
    if (this.listener !== listener) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('heartbeat timed out')), this.heartbeatMs);
    });
    try {
      await Promise.race([listener.query('SELECT 1'), timeout]);
      this.schedule(() => void this.heartbeat(listener), this.heartbeatMs);
    } catch (err) {
      this.lost(listener, err as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  private lost(listener: pg.Client, err: Error): void {
    if (this.listener !== listener) return;
    this.listener = undefined;
    this.goStale();
    void listener.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err: err.message }, 'client cache listener lost; reading clients from the database');
    this.schedule(() => void this.connect(), this.retryMs);
    this.retryMs = Math.max(this.retryMs, Math.min(this.retryMs * 2, 10_000));
  }

  private schedule(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }
}

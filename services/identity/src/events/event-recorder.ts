import type { Logger } from '@hush/common';
import type { EventsRepository } from './events.repository.js';
import type { EventsConfig, UserEvent } from './events.types.js';
import { sanitiseUserEvent } from './sanitise.js';
import { failureOf, isRefusedData, OnceEvery } from './write-failures.js';

/** Why an event was not written: the label of hush_events_unwritten_total. */
export type UnwrittenReason = 'rejected' | 'overflow' | 'shutdown' | 'after_close';

export interface EventRecorderOptions {
  /** How often buffered events are written (milliseconds). */
  flushMs?: number;
  /** A batch this large is written at once. */
  maxBatch?: number;
  /** How often the settings are re-read, so a change made on another replica applies here (milliseconds). */
  settingsMs?: number;
  /** Events kept in memory while the database is away; past it the oldest are dropped (and counted). */
  maxBuffered?: number;
  /** The shortest time between two log lines about the same kind of failure (milliseconds). */
  logIntervalMs?: number;
  /** hush_events_unwritten_total{reason}: every event that was not written, by why. */
  unwritten?: { inc(labels: { reason: UnwrittenReason }, value?: number): void };
}

/**
 * Records user events without a database round trip on the request's path: events are buffered
 * and written in batches (one INSERT per batch, as refresh tokens are), every `flushMs` or at
 * `maxBatch`. Admin events are not buffered: each is written in its change's transaction
 * (admin-api/admin-transaction.ts). Rules:
 * - what is recorded follows the realm's settings (`GET/PUT /events/config`), re-read every
 *   `settingsMs` (and at once on this replica when changed here); until first changed, the
 *   environment's (EVENTS_ENABLED, ADMIN_EVENTS_ENABLED, ...);
 * - an event is made storable when recorded (sanitise.ts), so what a request sent cannot make
 *   PostgreSQL refuse it, and its size is bounded in memory too;
 * - a batch PostgreSQL refuses for its content is split until the event it refuses stands alone;
 *   that event is left out and counted (`rejected`): one bad event never holds back the others;
 * - a batch that fails otherwise (the database is away) is kept for the next attempt, up to
 *   `maxBuffered` events, the oldest beyond it dropped and counted (`overflow`);
 * - every failure is counted in `unwritten` and logged at most once per `logIntervalMs` for each
 *   kind, never once per retry;
 * - close() waits for a write under way, then writes everything still buffered: a clean shutdown
 *   loses nothing the database takes;
 * - recording never throws into the caller.
 */
export class EventRecorder {
  private buffer: UserEvent[] = [];
  private config: EventsConfig;
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly settingsMs: number;
  private readonly maxBuffered: number;
  private readonly warnings: OnceEvery;

  constructor(
    private readonly repository: Pick<EventsRepository, 'insertUserEvents' | 'readConfig'>,
    private readonly defaults: EventsConfig,
    private readonly logger: Logger,
    private readonly options: EventRecorderOptions = {},
  ) {
    this.config = defaults;
    this.flushMs = options.flushMs ?? 250;
    this.maxBatch = options.maxBatch ?? 500;
    this.settingsMs = options.settingsMs ?? 5000;
    this.maxBuffered = options.maxBuffered ?? 50_000;
    this.warnings = new OnceEvery(options.logIntervalMs ?? 60_000);
  }

  async start(): Promise<void> {
    await this.reloadSettings();
    const flush = setInterval(() => void this.flush(), this.flushMs);
    const reload = setInterval(() => void this.reloadSettings().catch((err: unknown) => this.logger.warn({ err }, 'events settings reload failed')), this.settingsMs);
    this.timers = [flush, reload];
    this.timers.forEach((t) => t.unref());
  }

  /** Stops the timers and writes what is buffered (retrying a failed write a few times). */
  async close(): Promise<void> {
    this.closed = true;
    this.timers.forEach(clearInterval);
    this.timers = [];
    // A write under way holds its events outside the buffer (a refused batch may take several
    // round trips to split): it ends first, and what it could not write is back in the buffer.
    await this.flushing;
    for (let attempt = 0; attempt < 5 && this.buffer.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * attempt));
      await this.flush();
    }
    if (this.buffer.length > 0) {
      this.unwritten('shutdown', this.buffer.length);
      this.logger.error({ events: this.buffer.length }, 'events not written at shutdown');
      this.buffer = [];
    }
  }

  settings(): EventsConfig {
    return this.config;
  }

  /** The settings just written (by PUT /events/config) apply here at once; other replicas re-read them. */
  useSettings(config: EventsConfig): void {
    this.config = config;
  }

  user(event: Omit<UserEvent, 'time'>): void {
    const c = this.config;
    if (!c.eventsEnabled || (c.enabledEventTypes.length > 0 && !c.enabledEventTypes.includes(event.type))) return;
    // After close() the database may be gone: what a late request records is counted as lost.
    if (this.closed) {
      this.unwritten('after_close', 1);
      this.warn('after_close', {}, 'events recorded after shutdown were not written');
      return;
    }
    this.buffer.push(sanitiseUserEvent({ ...event, time: Date.now() }));
    if (this.buffer.length >= this.maxBatch) void this.flush();
    const excess = this.buffer.length - this.maxBuffered;
    if (excess > 0) {
      this.buffer.splice(0, excess);
      this.unwritten('overflow', excess);
      this.warn('overflow', { bound: this.maxBuffered }, 'events dropped: the database has not taken them');
    }
  }

  /** Writes what is buffered now; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.slice(0, this.maxBatch);
      this.buffer = this.buffer.slice(batch.length);
      const left = await this.writeOrSplit(batch);
      if (left.length > 0) {
        // Not the events' fault: they wait for the next attempt, in their order.
        this.buffer = [...left, ...this.buffer];
        return;
      }
    }
  }

  /**
   * Writes `batch`; when PostgreSQL refuses its content, each half on its own, down to the single
   * event it refuses, which is left out. Returns what is left to write when the database could not
   * be written at all (nothing once done).
   */
  private async writeOrSplit(batch: readonly UserEvent[]): Promise<readonly UserEvent[]> {
    try {
      await this.repository.insertUserEvents(batch);
      return [];
    } catch (err) {
      if (!isRefusedData(err)) {
        this.warn('unavailable', { failure: failureOf(err) }, 'events not written yet: the database could not take them; kept for the next attempt');
        return batch;
      }
      if (batch.length === 1) {
        this.unwritten('rejected', 1);
        this.warn('rejected', { failure: failureOf(err), type: batch[0]!.type }, 'event refused by the database: left out');
        return [];
      }
      const half = Math.ceil(batch.length / 2);
      const left = await this.writeOrSplit(batch.slice(0, half));
      return left.length > 0 ? [...left, ...batch.slice(half)] : this.writeOrSplit(batch.slice(half));
    }
  }

  private unwritten(reason: UnwrittenReason, count: number): void {
    this.options.unwritten?.inc({ reason }, count);
  }

  private warn(kind: string, fields: Record<string, unknown>, message: string): void {
    const suppressed = this.warnings.due(kind);
    if (suppressed !== undefined) this.logger.warn({ ...fields, ...(suppressed > 0 ? { suppressed } : {}) }, message);
  }

  private async reloadSettings(): Promise<void> {
    this.config = (await this.repository.readConfig()) ?? this.defaults;
  }
}

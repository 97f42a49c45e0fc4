import type { Logger } from '@hush/common';
import type { EventsRepository } from './events.repository.js';
import type { AdminEvent, EventsConfig, UserEvent } from './events.types.js';

export interface EventRecorderOptions {
  /** How often buffered events are written (milliseconds). */
  flushMs?: number;
  /** A batch this large is written at once. */
  maxBatch?: number;
  /** How often the settings are re-read, so a change made on another replica applies here (milliseconds). */
  settingsMs?: number;
  /** Events kept in memory while the database refuses them; past it the oldest are dropped (and counted in a warning). */
  maxBuffered?: number;
}

/**
 * Records user and admin events without a database round trip on the request's path: events are
 * buffered and written in batches (one INSERT per batch, as refresh tokens are), every `flushMs` or
 * at `maxBatch`. Rules:
 * - what is recorded follows the realm's settings (`GET/PUT /events/config`), re-read every
 *   `settingsMs` (and at once on this replica when changed here); until first changed, the
 *   environment's (EVENTS_ENABLED, ADMIN_EVENTS_ENABLED, ...);
 * - a failed write keeps its events for the next attempt (bounded by `maxBuffered`);
 * - close() writes everything still buffered: a clean shutdown loses nothing;
 * - recording never throws into the caller.
 */
export class EventRecorder {
  private userBuffer: UserEvent[] = [];
  private adminBuffer: AdminEvent[] = [];
  private config: EventsConfig;
  private timers: NodeJS.Timeout[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly settingsMs: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly repository: EventsRepository,
    private readonly defaults: EventsConfig,
    private readonly logger: Logger,
    options: EventRecorderOptions = {},
  ) {
    this.config = defaults;
    this.flushMs = options.flushMs ?? 250;
    this.maxBatch = options.maxBatch ?? 500;
    this.settingsMs = options.settingsMs ?? 5000;
    this.maxBuffered = options.maxBuffered ?? 50_000;
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
    for (let attempt = 0; attempt < 5 && this.buffered() > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 100 * attempt));
      await this.flush();
    }
    if (this.buffered() > 0) this.logger.error({ events: this.buffered() }, 'events not written at shutdown');
  }

  settings(): EventsConfig {
    return this.config;
  }

  async updateSettings(config: EventsConfig): Promise<void> {
    await this.repository.writeConfig(config);
    this.config = config;
  }

  user(event: Omit<UserEvent, 'time'>): void {
    const c = this.config;
    if (!c.eventsEnabled || (c.enabledEventTypes.length > 0 && !c.enabledEventTypes.includes(event.type))) return;
    this.userBuffer.push({ ...event, time: Date.now() });
    this.afterPush();
  }

  admin(event: Omit<AdminEvent, 'time'>): void {
    const c = this.config;
    if (!c.adminEventsEnabled) return;
    const { representation, ...rest } = event;
    this.adminBuffer.push({ ...rest, ...(c.adminEventsDetailsEnabled && representation !== undefined ? { representation } : {}), time: Date.now() });
    this.afterPush();
  }

  /** Writes what is buffered now; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private afterPush(): void {
    // After close() the database may be gone: what a late request records is logged as lost.
    if (this.closed) {
      this.logger.warn({ events: this.buffered() }, 'events recorded after shutdown were not written');
      this.userBuffer = [];
      this.adminBuffer = [];
      return;
    }
    if (this.buffered() >= this.maxBatch) void this.flush();
    const excess = this.buffered() - this.maxBuffered;
    if (excess > 0) {
      this.userBuffer.splice(0, Math.min(excess, this.userBuffer.length));
      this.logger.warn({ dropped: excess }, 'events dropped: the database has not taken them');
    }
  }

  private buffered(): number {
    return this.userBuffer.length + this.adminBuffer.length;
  }

  private async write(): Promise<void> {
    const users = this.userBuffer;
    const admins = this.adminBuffer;
    if (users.length + admins.length === 0) return;
    this.userBuffer = [];
    this.adminBuffer = [];
    try {
      await this.repository.insertUserEvents(users);
    } catch (err) {
      this.userBuffer = [...users, ...this.userBuffer];
      this.adminBuffer = [...admins, ...this.adminBuffer];
      this.logger.warn({ err, events: users.length }, 'events write failed; kept for the next attempt');
      return;
    }
    try {
      await this.repository.insertAdminEvents(admins);
    } catch (err) {
      this.adminBuffer = [...admins, ...this.adminBuffer];
      this.logger.warn({ err, events: admins.length }, 'admin events write failed; kept for the next attempt');
    }
  }

  private async reloadSettings(): Promise<void> {
    this.config = (await this.repository.readConfig()) ?? this.defaults;
  }
}

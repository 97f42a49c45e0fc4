import type { Logger } from '@hush/common/base';

/**
 * Logs a burst of one event as two lines instead of one per occurrence: the first at once, with its
 * own fields, and, once `quietMs` has passed without another (or at close), how many there were in
 * all. When Redis loses its data, every job it held is found gone and queued again: a thousand
 * identical lines would bury the one that says what happened.
 */
export class BurstLog {
  private count = 0;
  private since = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly message: string,
    private readonly quietMs: number,
  ) {}

  record(fields: Record<string, unknown>): void {
    if (this.count === 0) {
      this.since = Date.now();
      this.logger.warn({ ...fields, burst: 'started' }, this.message);
    }
    this.count++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.quietMs);
    this.timer.unref();
  }

  /** Ends the burst now: its summary line, if it had more than the one already logged. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count > 1) this.logger.warn({ count: this.count, durationMs: Date.now() - this.since, burst: 'ended' }, `${this.message} (summary)`);
    this.count = 0;
  }
}

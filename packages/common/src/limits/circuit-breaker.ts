/**
 * A circuit breaker for one dependency: once a call has timed out, the calls that follow are
 * refused at once (`allows` is false) instead of each waiting the full timeout again, until
 * `coolDownMs` has passed; then one call at a time goes through as a trial, and the first that
 * succeeds closes the circuit. A trial that neither succeeds nor fails within `trialMs` (its
 * own timeout) is taken as failed, so a lost one cannot hold the circuit open for good.
 *
 * Our own rather than a library's: the breakers we found wrap each call (a promise, a timer and
 * events per call), and ours sits on the pool's acquire of every query of the benchmarked paths,
 * where two timestamp comparisons do.
 */
export class CircuitBreaker {
  private openedAt: number | undefined;
  private trialAt: number | undefined;

  constructor(
    private readonly coolDownMs: number,
    private readonly trialMs: number,
  ) {}

  /** Open: calls are refused (a cool-down, or a trial under way). */
  get isOpen(): boolean {
    return this.openedAt !== undefined;
  }

  /** Whether a call may go to the dependency now; in the half-open state, true for one caller at a time. */
  allows(now: number): boolean {
    if (this.openedAt === undefined) return true;
    if (now - this.openedAt < this.coolDownMs) return false;
    if (this.trialAt !== undefined && now - this.trialAt < this.trialMs) return false;
    this.trialAt = now;
    return true;
  }

  /** A call timed out: open (again), from now. */
  timedOut(now: number): void {
    this.openedAt = now;
    this.trialAt = undefined;
  }

  /** A call was answered: the dependency works, close. */
  succeeded(): void {
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    this.trialAt = undefined;
  }
}

/**
 * Refused before trying: the dependency's circuit is open (it did not answer in time a moment
 * ago), or the wait for it would outlast the request's deadline. Recognised as a dependency's
 * outage (503 with Retry-After, see errors.ts `unavailableDependency`), and by readiness as a timeout.
 */
export class DependencyShedError extends Error {
  readonly code = 'ESHED';
  constructor(
    readonly dependency: string,
    reason: string,
  ) {
    super(`${dependency} not tried: ${reason}`);
    this.name = 'DependencyShedError';
  }
}

import type { Logger } from './logger.js';

/**
 * Logs a dependency's outage once: its first failure at error level, with the error's own code
 * (ECONNREFUSED, ETIMEDOUT...), then only counts the failures that follow until the dependency
 * answers again, and logs the recovery with that count. During an outage every request fails the
 * same way; a line (and a stack) per request would bury the one line that matters.
 */
export class OutageLog {
  private since: number | undefined;
  private failures = 0;

  constructor(
    private readonly logger: Logger,
    readonly dependency: string,
  ) {}

  get down(): boolean {
    return this.since !== undefined;
  }

  /** `context`: fields for the first line, such as the id of the request that met the outage. */
  failed(err: unknown, context: Record<string, unknown> = {}): void {
    this.failures++;
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.logger.error({ ...context, dependency: this.dependency, ...describe(err) }, `${this.dependency} unavailable`);
  }

  recovered(): void {
    if (this.since === undefined) return;
    this.logger.warn({ dependency: this.dependency, failures: this.failures, downMs: Date.now() - this.since }, `${this.dependency} available again`);
    this.since = undefined;
    this.failures = 0;
  }
}

const logs = new WeakMap<Logger, Map<string, OutageLog>>();

/** The outage log of `dependency` for this logger: one per service and dependency, wherever the failure is seen. */
export function outageLog(logger: Logger, dependency: string): OutageLog {
  let byDependency = logs.get(logger);
  if (!byDependency) logs.set(logger, (byDependency = new Map<string, OutageLog>()));
  let log = byDependency.get(dependency);
  if (!log) byDependency.set(dependency, (log = new OutageLog(logger, dependency)));
  return log;
}

/**
 * Whether a dependency failed by not answering in time (a driver's connect, acquire, query or
 * command timeout, PostgreSQL's statement_timeout) rather than by refusing: readiness calls it a
 * timeout whichever of the driver's timer and its own fires first.
 */
export function isTimeoutFailure(err: unknown): boolean {
  const { code } = describe(err);
  // ESHED: refused at once because the dependency timed out a moment ago (circuit-breaker.ts).
  return code === 'ETIMEDOUT' || code === '57014' || code === 'KnexTimeoutError' || code === 'ESHED';
}

/** The error's code and message only: no stack (it is the network's fault, not a line of ours), no connection details. */
function describe(err: unknown): { code: string; reason: string } {
  const e = err as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown } | null;
  // net.connect over several addresses fails with an AggregateError whose parts carry the codes.
  const first = Array.isArray(e?.errors) ? (e.errors[0] as { code?: unknown } | undefined) : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  // knex puts the statement before the driver's message: the operator needs the latter.
  const statementEnd = message.lastIndexOf(' - ');
  const reason = statementEnd === -1 ? message : message.slice(statementEnd + 3);
  // The failures the drivers report without a code: timeouts (pool acquire, pg's query and
  // connect timeouts, Redis's command timeout), and a connection the server closed under us.
  const fallback = /time(d)? ?out|timeout expired/i.test(reason)
    ? 'ETIMEDOUT'
    : /^Connection (terminated|ended|is closed)/.test(reason)
      ? 'ECONNRESET'
      : typeof e?.name === 'string'
        ? e.name
        : 'unknown';
  const code = typeof e?.code === 'string' ? e.code : typeof first?.code === 'string' ? first.code : fallback;
  return { code, reason };
}

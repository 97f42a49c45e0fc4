/**
 * How the event recorder tells and reports its write failures (event-recorder.ts).
 */

// SQLSTATE classes of a statement refused for what it carries: 22 data exception (a value jsonb or
// text cannot hold), 23 integrity constraint violation, 54 program limit exceeded (a row too big).
const REFUSED_DATA = /^(22|23|54)[0-9A-Z]{3}$/;

/** Whether PostgreSQL refused the rows themselves (so another batch may pass), rather than being away. */
export function isRefusedData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && REFUSED_DATA.test(code);
}

/**
 * What a log line says of a failed write: the SQLSTATE and the message, never PostgreSQL's detail,
 * which quotes the refused row (a username typed on the login page may be an e-mail address).
 */
export function failureOf(err: unknown): { code?: string; message: string } {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return { ...(typeof code === 'string' ? { code } : {}), message: typeof message === 'string' ? message.slice(0, 300) : String(err) };
}

/**
 * At most one log line per kind of failure per interval: a failure that repeats on every retry
 * (four times a second while the database is away) is logged once, then once an interval with how
 * many were left out since; the metric counts every one.
 */
export class OnceEvery {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Undefined: not now. A number: log now, saying this many lines were left out since the last. */
  due(kind: string): number | undefined {
    const seen = this.last.get(kind);
    const now = this.now();
    if (seen && now - seen.at < this.intervalMs) {
      seen.suppressed++;
      return undefined;
    }
    this.last.set(kind, { at: now, suppressed: 0 });
    return seen?.suppressed ?? 0;
  }
}

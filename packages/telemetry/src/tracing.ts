/**
 * What the services call to add to a trace. Without tracing (the default) every function here
 * is a read of one global and a return: the OpenTelemetry SDK is loaded, and installs the real
 * implementation, only by the register module when the OTEL_* variables ask for it.
 */

/** A span's role, as OpenTelemetry's SpanKind. */
export type SpanRole = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export interface SpanOptions {
  role?: SpanRole;
  /**
   * A W3C `traceparent` to continue (one carried in an outbox row or a job); without it the span
   * is a child of the current one, or a new trace.
   */
  parent?: string | undefined;
  /** Never a secret, token, key, address or link: the exporter scrubs URLs and addresses, nothing else. */
  attributes?: Record<string, string | number | boolean>;
}

/** The running implementation (sdk.ts). */
export interface Tracing {
  span<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T>;
  /** The current span's W3C `traceparent`, to carry across a queue or a table. */
  traceparent(): string | undefined;
  /** The current span's trace and span ids (hex), for log lines. */
  ids(): { traceId: string; spanId: string } | undefined;
  /** Runs `work` in no trace: background work that a request only triggers. */
  outside<T>(work: () => T): T;
  /** Names the current server span after its route template (a request that bypasses Express's router). */
  nameRoute(method: string, route: string): void;
  /** Exports what is still buffered (before the process exits). */
  flush(): Promise<void>;
}

const SLOT = Symbol.for('hush.telemetry.tracing');
type Holder = { [SLOT]?: Tracing };

/**
 * The implementation as first looked up (null: none). The register module installs it before the
 * service's own modules load, so the first call, made while the service runs, finds it settled; a
 * global keyed by a registered symbol, rather than this module's state alone, so a second copy of
 * the package (an image's, a checkout's) sees what the first installed.
 */
let found: Tracing | null | undefined;

/** Installs the implementation; called once, by sdk.ts. */
export function installTracing(tracing: Tracing): void {
  (globalThis as Holder)[SLOT] = tracing;
  found = tracing;
}

function current(): Tracing | undefined {
  if (found === undefined) found = (globalThis as Holder)[SLOT] ?? null;
  return found ?? undefined;
}

/** Whether this process traces. */
export function tracingOn(): boolean {
  return current() !== undefined;
}

/** Runs `work` in a span named `name` (the span ends when it settles, recording a failure); without tracing, runs `work`. */
export function withSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const tracing = current();
  return tracing ? tracing.span(name, options, work) : work();
}

/**
 * Runs `work` outside any trace: background work a request merely sets off (a relay pass that
 * serves every request's rows) must not land in that request's trace.
 */
export function outsideTrace<T>(work: () => T): T {
  const tracing = current();
  return tracing ? tracing.outside(work) : work();
}

/** The current span's `traceparent` (undefined without tracing or outside a span). */
export function currentTraceparent(): string | undefined {
  return current()?.traceparent();
}

/** The current trace id (undefined without tracing or outside a span). */
export function currentTraceId(): string | undefined {
  return current()?.ids()?.traceId;
}

/**
 * pino's `mixin` for a traced process: `trace_id` and `span_id` (OpenTelemetry's names for them
 * in logs) on every line written inside a span; undefined without tracing, so a logger built
 * without it costs nothing.
 */
export function traceLogMixin(): (() => Record<string, string>) | undefined {
  const tracing = current();
  if (!tracing) return undefined;
  const none: Record<string, string> = {};
  return () => {
    const ids = tracing.ids();
    return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : none;
  };
}

/** Names the current server span `METHOD route` and sets its http.route. */
export function nameServerSpan(method: string, route: string): void {
  current()?.nameRoute(method, route);
}

/** Exports the spans still buffered; resolves at once without tracing. */
export function flushTraces(): Promise<void> {
  return current()?.flush() ?? Promise.resolve();
}

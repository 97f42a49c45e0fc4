import { isTimeoutFailure } from '../logging/outage.js';
import { withTimeout } from '../limits/timeout.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Resolves when the dependency is usable; rejects (or hangs past the timeout) when it is not.
 * A check answers from what the service tracks where it can (an open circuit fails at once, see
 * `databaseReadiness`) and never queues a probe behind another.
 */
export type ReadinessCheck = () => Promise<unknown>;

export interface HealthOptions {
  /**
   * What the service cannot serve without (its database, its keys), by name; each name is a key
   * of the /readyz body. Whatever fails here fails on every replica at once, so only what no
   * replica could serve without belongs here: an unready fleet is an outage.
   */
  checks: Record<string, ReadinessCheck>;
  /**
   * What the service serves without, degraded (Redis in identity and secrets), by name: checked
   * and reported in the /healthz body and the `hush_dependency_up` gauge (management.ts), never
   * making the service unready or unlive.
   */
  reported?: Record<string, ReadinessCheck>;
  /** Each check's own limit (ms): a dependency that hangs is as unready as one that refuses. */
  timeoutMs?: number;
  /** True once shutdown has begun: unready, so the load balancer stops sending new requests. */
  stopping?: () => boolean;
}

export type CheckResult = 'ok' | 'unavailable' | 'timeout';
export interface Readiness {
  ready: boolean;
  body: { status: 'ready' | 'not ready' | 'stopping' } & Record<string, string>;
}

/** Below a second, so /readyz answers within one whatever its dependencies do (a probe's own timer, then the reply). */
const DEFAULT_TIMEOUT_MS = 800;

function run(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const outcome = Promise.resolve()
    .then(check)
    .then(
      (): CheckResult => 'ok',
      (err: unknown): CheckResult => (isTimeoutFailure(err) ? 'timeout' : 'unavailable'),
    );
  return withTimeout(outcome, timeoutMs, (): CheckResult => 'timeout');
}

/** What /healthz spends at most on the reported dependencies: it answers well within a liveness probe's 1 s. */
const REPORT_TIMEOUT_MS = 300;

/** Runs every check of `checks` at once, each under `timeoutMs`: each one's result by name. */
export async function checkAll(checks: Record<string, ReadinessCheck>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Record<string, CheckResult>> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => run(checks[name] as ReadinessCheck, timeoutMs)));
  return Object.fromEntries(names.map((name, i) => [name, results[i] as CheckResult]));
}

/** Runs every check at once, each under its own timeout, so the answer comes within `timeoutMs`. */
export async function checkReadiness(options: HealthOptions): Promise<Readiness> {
  if (options.stopping?.()) return { ready: false, body: { status: 'stopping' } };
  const results = await checkAll(options.checks, options.timeoutMs);
  const ready = Object.values(results).every((r) => r === 'ok');
  return { ready, body: { status: ready ? 'ready' : 'not ready', ...results } };
}

type Listener = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * `GET /healthz` (the process runs: liveness, always 200; the body names the state of each
 * reported dependency) and `GET /readyz` (every needed dependency answers: readiness, 503 naming
 * the ones that do not), as JSON that is never cached. Written against
 * node:http, so it is Express middleware as well as the mailer's whole router; any other path
 * goes to `next`.
 */
export function healthEndpoints(options: HealthOptions): Listener {
  return (req, res, next) => {
    const q = (req.url ?? '/').indexOf('?');
    const path = q === -1 ? req.url : req.url?.slice(0, q);
    if (path !== '/healthz' && path !== '/readyz') return next();
    const reply = (status: number, body: object, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, { status: 'method not allowed' }, { allow: 'GET, HEAD' });
    if (path === '/healthz') {
      if (!options.reported) return reply(200, { status: 'ok' });
      return void checkAll(options.reported, REPORT_TIMEOUT_MS).then(
        (results) => reply(200, { status: 'ok', ...results }),
        () => reply(200, { status: 'ok' }),
      );
    }
    checkReadiness(options).then(
      ({ ready, body }) => reply(ready ? 200 : 503, body),
      () => reply(503, { status: 'not ready' }),
    );
  };
}

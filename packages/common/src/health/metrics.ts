import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics shared by the HTTP services: one registry per app (tests build several apps
 * in one process), process metrics, and request count and latency per route.
 *
 * A route label comes only from a declared route (a path pattern of the code, never a path a
 * client sent), so the number of series is bounded by the code: anything else, an unknown or
 * undecodable path included, counts under the one label `unmatched`.
 */
export interface HttpMetrics {
  registry: Registry;
  /** Express-style middleware: counts and times every request under its route pattern. */
  middleware: (req: MetricRequest, res: MetricResponse, next: () => void) => void;
}

type MetricRequest = { method: string; originalUrl: string; baseUrl?: string; route?: { path?: unknown } };
type MetricResponse = { statusCode: number; on(event: 'finish', cb: () => void): unknown };

/** The label of every request no declared route took. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The declared route pattern `path` belongs to, if any, for routes no Express router matches (identity's protocol routes). */
export type DeclaredRoutes = (path: string) => string | undefined;

export interface HttpMetricsOptions {
  /** Routes served outside Express's routers, by pattern. */
  declaredRoutes?: DeclaredRoutes;
}

/**
 * The route label of a finished request: the pattern of the Express route (or fast-path endpoint)
 * that took it, under its mount; else the pattern `declaredRoutes` finds for its path; else
 * `unmatched`. The mount is lower-cased: Express matches mount paths in any letter case, and
 * each spelling must not become a series of its own.
 */
export function routeLabel(req: MetricRequest, declaredRoutes?: DeclaredRoutes): string {
  if (req.route && typeof req.route.path === 'string') return `${(req.baseUrl ?? '').toLowerCase()}${req.route.path}`;
  if (declaredRoutes) {
    const q = req.originalUrl.indexOf('?');
    const found = declaredRoutes(q === -1 ? req.originalUrl : req.originalUrl.slice(0, q));
    if (found !== undefined) return found;
  }
  return UNMATCHED_ROUTE;
}

/**
 * A `DeclaredRoutes` over path patterns such as `/a/:id/b`: a `:name` segment matches any one
 * non-empty segment, every other segment only itself. The label is the pattern.
 */
export function declaredRoutes(patterns: readonly string[]): DeclaredRoutes {
  const compiled = patterns.map((pattern) => ({ pattern, segments: pattern.split('/') }));
  return (path) => {
    const segments = path.split('/');
    for (const { pattern, segments: want } of compiled) {
      if (want.length !== segments.length) continue;
      if (want.every((w, i) => (w.startsWith(':') ? (segments[i] ?? '') !== '' : w === segments[i]))) return pattern;
    }
    return undefined;
  };
}

export function createHttpMetrics(service: string, options: HttpMetricsOptions = {}): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    middleware(req, res, next) {
      const end = duration.startTimer();
      res.on('finish', () => {
        // node:http accepts only the methods it knows, so the method label is bounded too.
        const route = routeLabel(req, options.declaredRoutes);
        end({ method: req.method, route });
        requests.inc({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    },
  };
}

import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics shared by the HTTP services: one registry per app (tests build several apps
 * in one process), process metrics, and request count and latency per route.
 */
export interface HttpMetrics {
  registry: Registry;
  /** Express-style middleware: counts and times every request under its route pattern. */
  middleware: (req: MetricRequest, res: MetricResponse, next: () => void) => void;
  /** Handler for GET /metrics. */
  handler: (req: unknown, res: { set(name: string, value: string): unknown; send(body: string): unknown }) => Promise<void>;
}

type MetricRequest = { method: string; originalUrl: string; baseUrl?: string; route?: { path?: unknown } };
type MetricResponse = { statusCode: number; on(event: 'finish', cb: () => void): unknown };

/** Random-looking path segments (keys, uids) are folded so label cardinality stays bounded. */
export function routeLabel(req: MetricRequest, status: number): string {
  if (req.route && typeof req.route.path === 'string') return `${req.baseUrl ?? ''}${req.route.path}`;
  if (status === 404) return 'unmatched';
  const path = req.originalUrl.split('?')[0] ?? '';
  return path.replace(/\/[A-Za-z0-9_-]{16,}(?=\/|$)/g, '/:id');
}

export function createHttpMetrics(service: string): HttpMetrics {
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
        const route = routeLabel(req, res.statusCode);
        end({ method: req.method, route });
        requests.inc({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    },
    async handler(_req, res) {
      res.set('Content-Type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}

import type { RequestListener } from 'node:http';
import { Gauge, type Registry } from 'prom-client';
import { checkAll, healthEndpoints, type HealthOptions, type ReadinessCheck } from './health.js';

/**
 * The management port's listener: `/healthz` and `/readyz` (health.ts) for the orchestrator and
 * `/metrics` (Prometheus text format) for the scraper, and nothing else. It runs on a port of its
 * own (MANAGEMENT_PORT), never published to the public, as Keycloak serves its health and metrics
 * on port 9000: what the metrics reveal (traffic, errors, queue depths) is for operators, and a
 * probe keeps answering while the public port is saturated.
 */
export function managementEndpoints({ health, registry }: { health: HealthOptions; registry: Registry }): RequestListener {
  const endpoints = healthEndpoints(health);
  dependencyGauge(registry, { ...health.checks, ...health.reported });
  return (req, res) =>
    endpoints(req, res, () => {
      const path = (req.url ?? '/').split('?')[0];
      const reply = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (path !== '/metrics') return reply(404, 'not found\n');
      if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
      registry.metrics().then(
        (text) => reply(200, text, registry.contentType),
        () => reply(503, 'metrics unavailable\n'),
      );
    });
}

/** The gauge's name, the same in every service. */
export const DEPENDENCY_GAUGE = 'hush_dependency_up';

/**
 * `hush_dependency_up{dependency="redis"}`: 1 while the dependency answers its health check, 0
 * while it does not, for every check, needed or only reported, checked at each scrape. Alerts
 * on a degraded dependency (Redis in identity and secrets) come from here, not from readiness.
 */
function dependencyGauge(registry: Registry, checks: Record<string, ReadinessCheck>): void {
  if (registry.getSingleMetric(DEPENDENCY_GAUGE)) return;
  new Gauge({
    name: DEPENDENCY_GAUGE,
    help: 'Whether a dependency answers its health check (1) or not (0), by dependency',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      const results = await checkAll(checks);
      for (const [dependency, result] of Object.entries(results)) this.set({ dependency }, result === 'ok' ? 1 : 0);
    },
  });
}

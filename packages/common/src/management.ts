import type { RequestListener } from 'node:http';
import type { Registry } from 'prom-client';
import { healthEndpoints, type HealthOptions } from './health.js';

/**
 * The management port's listener: `/healthz` and `/readyz` (health.ts) for the orchestrator and
 * `/metrics` (Prometheus text format) for the scraper, and nothing else. It runs on a port of its
 * own (MANAGEMENT_PORT), never published to the public, as Keycloak serves its health and metrics
 * on port 9000: what the metrics reveal (traffic, errors, queue depths) is for operators, and a
 * probe keeps answering while the public port is saturated.
 */
export function managementEndpoints({ health, registry }: { health: HealthOptions; registry: Registry }): RequestListener {
  const endpoints = healthEndpoints(health);
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

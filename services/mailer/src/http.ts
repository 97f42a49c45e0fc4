import type { RequestListener } from 'node:http';
import type { Registry } from 'prom-client';
import { healthEndpoints, type HealthOptions } from '@hush/common/base';

/**
 * Health and metrics endpoints for the orchestrator and Prometheus: `/healthz` and `/readyz`
 * (packages/common health), `/metrics` (Prometheus text format). The mailer serves nothing else.
 */
export function createHealthHandler({ health, registry }: { health: HealthOptions; registry: Registry }): RequestListener {
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
        () => reply(500, 'metrics unavailable\n'),
      );
    });
}

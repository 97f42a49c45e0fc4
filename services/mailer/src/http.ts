import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export interface HealthChecks {
  /** true when the mailer can reach Redis and is not shutting down. */
  ready: () => Promise<boolean>;
  registry: Registry;
}

/**
 * Health and metrics endpoints for the orchestrator and Prometheus:
 * `/healthz` (the process runs), `/readyz` (Redis answers), `/metrics` (Prometheus text format).
 */
export function createHealthServer({ ready, registry }: HealthChecks): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n');
    switch (path) {
      case '/healthz':
        return reply(200, 'ok\n');
      case '/readyz':
        ready().then(
          (ok) => reply(ok ? 200 : 503, ok ? 'ready\n' : 'not ready\n'),
          () => reply(503, 'not ready\n'),
        );
        return;
      case '/metrics':
        registry.metrics().then(
          (text) => reply(200, text, registry.contentType),
          () => reply(500, 'metrics unavailable\n'),
        );
        return;
      default:
        return reply(404, 'not found\n');
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

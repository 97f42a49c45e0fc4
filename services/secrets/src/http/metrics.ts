import { Counter, Gauge } from 'prom-client';
import { createHttpMetrics } from '@hush/common';
import type { SecretEvents } from '../secrets/deps.js';

/** Request metrics plus the secrets' lifecycle and the e-mail pipeline, for GET /metrics. */
export function createSecretsMetrics(sources: { queueDepth(): Promise<number>; outboxPending(): Promise<number> }) {
  const http = createHttpMetrics('secrets');
  const registers = [http.registry];
  const created = new Counter({ name: 'hush_secrets_created_total', help: 'Secrets created, by operation', labelNames: ['kind'], registers });
  const read = new Counter({ name: 'hush_secrets_read_total', help: 'Secrets revealed (each once)', registers });
  const burned = new Counter({ name: 'hush_secrets_burned_total', help: 'Secrets burned unread', registers });
  const expired = new Counter({ name: 'hush_secrets_expired_total', help: 'Expired secrets deleted by the sweeper', registers });
  new Gauge({
    name: 'hush_secrets_email_queue_depth',
    help: 'E-mail jobs waiting, delayed or active in the queue',
    registers,
    async collect() {
      this.set(await sources.queueDepth().catch(() => -1));
    },
  });
  new Gauge({
    name: 'hush_secrets_outbox_pending',
    help: 'E-mail requests not yet moved to the queue (grows while Redis is down)',
    registers,
    async collect() {
      this.set(await sources.outboxPending());
    },
  });
  const events: SecretEvents = {
    created: (kind) => created.inc({ kind }),
    read: () => read.inc(),
    burned: () => burned.inc(),
  };
  return { http, events, expired: (n: number) => expired.inc(n) };
}

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MailerMetrics {
  registry: Registry;
  sent: Counter;
  failed: Counter<'kind'>;
  sendDuration: Histogram;
  queueWaiting: Gauge;
}

/**
 * One registry per mailer instance (not prom-client's global one), so several mailers can run in
 * one process, as the tests do. `waitingCount` is read when Prometheus scrapes.
 */
export function createMetrics(waitingCount: () => Promise<number | undefined>): MailerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    sent: new Counter({
      name: 'hush_mailer_emails_sent_total',
      help: 'E-mails accepted by the SMTP server.',
      registers: [registry],
    }),
    failed: new Counter({
      name: 'hush_mailer_emails_failed_total',
      help: 'E-mails given up on: permanent (5xx reply, bad address, invalid job) or exhausted (temporary failures until the last attempt).',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    sendDuration: new Histogram({
      name: 'hush_mailer_send_duration_seconds',
      help: 'Time of one SMTP send attempt, successful or not.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    queueWaiting: new Gauge({
      name: 'hush_mailer_queue_waiting',
      help: 'Jobs waiting in the secret-link queue (not counting delayed retries).',
      registers: [registry],
      async collect() {
        const count = await waitingCount();
        if (count !== undefined) this.set(count);
      },
    }),
  };
}

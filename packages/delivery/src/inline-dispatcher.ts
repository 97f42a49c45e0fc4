import type { MailJob } from '@hush/queue';
import { SendError, createMailTransport, sendMailJob, type MailTransport } from '@hush/mail';
import type { Dispatcher, OnStatus, Outcome } from './dispatchers.js';

/**
 * No Redis (the local quickstart without one): the same rendering and sending code as the
 * mailer (@hush/mail), called here; retries are the outbox's own (exponential backoff from
 * `backoffMs`, at most `attempts`), and the outcome is recorded directly.
 */
export class InlineDispatcher implements Dispatcher {
  private readonly transport: MailTransport;

  constructor(
    o: { smtpUrl: string; from: string; requireTls: boolean; rejectUnauthorized: boolean; attempts: number; backoffMs: number },
    private readonly onStatus: OnStatus,
  ) {
    this.attempts = o.attempts;
    this.backoffMs = o.backoffMs;
    this.transport = createMailTransport({ smtpUrl: o.smtpUrl, from: o.from, maxConnections: 2, requireTls: o.requireTls, rejectUnauthorized: o.rejectUnauthorized });
  }

  private readonly attempts: number;
  private readonly backoffMs: number;

  async dispatch(job: MailJob, attempt: number): Promise<Outcome> {
    try {
      await sendMailJob(this.transport, job);
      await this.onStatus(job.deliveryId, 'sent', new Date(), undefined);
      return { kind: 'done' };
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      const last = attempt + 1 >= this.attempts;
      if (err.failure.permanent || last) {
        const reason = last && !err.failure.permanent ? `${err.failure.reason} (gave up after ${this.attempts} attempts)` : err.failure.reason;
        await this.onStatus(job.deliveryId, 'failed', new Date(), reason);
        return { kind: 'failed', reason };
      }
      // Exponential backoff from MAIL_BACKOFF_MS, as the mailer's BullMQ jobs have; capped at 5 min.
      return { kind: 'retry', reason: err.failure.reason, afterSeconds: Math.min(300, Math.max(1, Math.ceil((this.backoffMs * 2 ** attempt) / 1000))) };
    }
  }

  /** Nothing is handed on: every outcome is known when dispatch() returns. */
  jobPending(): Promise<boolean> {
    return Promise.resolve(false);
  }

  queueDepth(): Promise<number> {
    return Promise.resolve(0);
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}

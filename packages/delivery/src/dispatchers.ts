import type { MailJob } from '@hush/queue';

/** What happened to one e-mail request taken from the outbox. */
export type Outcome =
  | { kind: 'queued' } // handed to the mailer; its outcome will come back on the status queue
  | { kind: 'done' } // sent (inline)
  | { kind: 'failed'; reason: string } // will not be delivered
  | { kind: 'retry'; reason: string; afterSeconds: number }; // try again later

/** Hands e-mail requests on: to the mailer through BullMQ, or straight to SMTP. */
export interface Dispatcher {
  dispatch(job: MailJob, attempt: number): Promise<Outcome>;
  /**
   * Whether the job of a delivery handed on earlier is still waiting, delayed or running (false:
   * it is gone, e.g. with Redis's data, and no outcome will come unless it is queued again).
   * Throws when that cannot be known (Redis down).
   */
  jobPending(deliveryId: string): Promise<boolean>;
  queueDepth(): Promise<number>;
  close(): Promise<void>;
}

/** How a dispatcher reports the outcome of a delivery it handed on. */
export type OnStatus = (deliveryId: string, status: 'sent' | 'failed', at: Date, reason: string | undefined) => Promise<void>;

import type { KeyRing, Logger } from '@hush/common';
import { DeliveryRelay, type DeliveryOptions } from '@hush/delivery';
import { accountLinkJob, type AccountLinkJob } from '@hush/queue';
import type { OutboxRepository, OutboxRow } from './outbox.repository.js';

/**
 * The outbox payload of an e-mail: the job as JSON, sealed under identity's outbox key and bound
 * to the row id, so the database holds no address or link in clear (the token is stored hashed;
 * its link exists only sealed here, in the queue, sealed again, and in the e-mail).
 */
export function sealAccountLink(keys: KeyRing, job: AccountLinkJob): Buffer {
  return keys.seal(JSON.stringify(job), `mail_outbox:${job.deliveryId}`);
}

/**
 * Identity's e-mail delivery: the shared outbox relay (packages/delivery: hand-off, retries,
 * reconciliation of lost jobs, status) over identity's mail outbox, producing as `identity` so the
 * mailer reports outcomes to identity's own status queue.
 */
export class AccountMail extends DeliveryRelay<OutboxRow> {
  constructor(deps: { outbox: OutboxRepository; outboxKey: KeyRing; logger: Logger }, options: Omit<DeliveryOptions, 'producer'>) {
    super(
      {
        outbox: deps.outbox,
        logger: deps.logger,
        jobOf: (row: OutboxRow) => accountLinkJob.parse(JSON.parse(deps.outboxKey.open(row.payloadSealed, `mail_outbox:${row.id}`).toString('utf8'))),
      },
      { ...options, producer: 'identity' },
    );
  }
}

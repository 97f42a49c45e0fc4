import type { KeyRing, Logger } from '@hush/common';
import type { Config } from '../config.js';
import { deliveryOptions, DeliveryRelay, type DeliveryOptions } from '@hush/delivery';
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

/** Identity's account e-mail relay as the config sets it up: to the mailer over the mail queue, or SMTP inline. */
export function accountMailOf(config: Config, deps: { outbox: OutboxRepository; outboxKey: KeyRing; logger: Logger }): AccountMail {
  return new AccountMail(deps, deliveryOptions(config));
}

/**
 * Without its sealing key a queue-mode relay cannot seal jobs. main.ts refuses to start so
 * (requireDeliveryKeys); an app built without it (tests that send no e-mail) leaves the relay off.
 */
export const accountMailReady = (config: Pick<Config, 'DELIVERY_MODE' | 'MAIL_SEALING_KEY'>): boolean => config.DELIVERY_MODE === 'inline' || config.MAIL_SEALING_KEY !== undefined;

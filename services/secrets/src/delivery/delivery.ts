import { mailJob, notificationJob, type MailJob } from '@hush/queue';
import type { Logger } from '@hush/common';
import { DeliveryRelay, type DeliveryOptions as RelayOptions, type DepthRedis } from '@hush/delivery';
import type { SecretCrypto } from '../secrets/secret-crypto.js';
import type { OutboxRepository, OutboxRow } from './outbox.repository.js';

/** The relay's options (packages/delivery); the secrets service's jobs report to its own status queue. */
export type DeliveryOptions = Omit<RelayOptions, 'producer'>;

/** What the relay reaches: the outbox, the key that opens the payloads sealed in it, the log, Redis (the queue's depth). */
export interface DeliveryDeps {
  outbox: OutboxRepository;
  crypto: Pick<SecretCrypto, 'openOutbox' | 'openNotify'>;
  logger: Logger;
  redis?: DepthRedis;
}

/**
 * E-mail delivery of the secrets service: the shared outbox relay (packages/delivery, which says
 * what it guarantees) over this service's outbox, whose rows are written by the share's own
 * statement; statuses land on the metadata.
 */
export class Delivery extends DeliveryRelay<OutboxRow> {
  constructor(deps: DeliveryDeps, options: DeliveryOptions) {
    super({ outbox: deps.outbox, logger: deps.logger, redis: deps.redis, jobOf: (row: OutboxRow) => jobOf(deps.crypto, row) }, { ...options, producer: 'secrets' });
  }
}

/**
 * The job of an outbox row: a recipient's link e-mail, one-time code or secret request sealed for the row, or a creator's
 * notification, whose address was sealed for its metadata when the secret was shared and whose
 * event and time are the row's own.
 */
function jobOf(crypto: DeliveryDeps['crypto'], row: OutboxRow): MailJob {
  if (!row.notify) return mailJob.parse(JSON.parse(crypto.openOutbox(row.id, row.payloadSealed)));
  const { to, shortkey, locale } = JSON.parse(crypto.openNotify(row.notify.metadataHash, row.payloadSealed)) as { to: string; shortkey: string; locale?: string };
  const at = Math.floor(row.notify.at.getTime() / 1000);
  return notificationJob.parse({ version: 1, kind: 'notification', deliveryId: row.id, to, shortkey, event: row.notify.event, at, ...(locale !== undefined ? { locale } : {}) });
}

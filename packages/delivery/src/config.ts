import { ConfigError, queueKeys, seconds, smtpKeys } from '@hush/common/base';
import { z } from 'zod';
import type { DeliveryOptions } from './relay.js';

/**
 * The configuration keys of e-mail delivery, declared once for every service that sends e-mail
 * through an outbox relay (identity and secrets): each spreads `deliveryKeys()` into its schema,
 * maps the parsed values with `deliveryOptions` and, when it starts serving, checks them with
 * `requireDeliveryKeys`.
 */
export const deliveryKeys = () => ({
  /** QUEUE_PREFIX and MAIL_SEALING_KEY: the mailer's (packages/common config-keys.ts). */
  ...queueKeys(),
  /** Send attempts per e-mail, and the first retry delay in ms (doubled each time). */
  MAIL_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_BACKOFF_MS: z.coerce.number().int().min(10).default(5000),
  /**
   * Seconds after handing an e-mail to the queue before the relay checks that its job still
   * exists, and queues it again if Redis lost it; then again every as many seconds until the
   * mailer reports the outcome.
   */
  MAIL_REQUEUE_AFTER: seconds(300),
  /** Times an e-mail whose job vanished from the queue is queued again before it is marked failed. */
  MAIL_REQUEUE_LIMIT: z.coerce.number().int().min(0).max(100).default(5),
  /** How often (ms) the outbox relay looks for e-mails to queue (it also runs right after one is written). */
  RELAY_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /**
   * `queue` (default): e-mails go through BullMQ to the mailer, sealed under MAIL_SEALING_KEY,
   * without which the service refuses to start. `inline`: the service sends them itself over
   * SMTP_URL with the mailer's code (a machine without Redis for the queue).
   */
  DELIVERY_MODE: z.enum(['queue', 'inline']).default('queue'),
  /** Inline mode only: the SMTP server and sender, as the mailer's. */
  ...smtpKeys(),
});

/** The parsed values of `deliveryKeys`. */
export type DeliveryConfig = z.infer<z.ZodObject<ReturnType<typeof deliveryKeys>>>;

/** The relay's options from the delivery keys; the service adds who it produces as. */
export function deliveryOptions(config: DeliveryConfig & { REDIS_URL: string }): Omit<DeliveryOptions, 'producer'> {
  return {
    mode: config.DELIVERY_MODE,
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    sealingKey: config.MAIL_SEALING_KEY,
    attempts: config.MAIL_ATTEMPTS,
    backoffMs: config.MAIL_BACKOFF_MS,
    relayIntervalMs: config.RELAY_INTERVAL_MS,
    requeueAfterSeconds: config.MAIL_REQUEUE_AFTER,
    requeueLimit: config.MAIL_REQUEUE_LIMIT,
    smtp: { url: config.SMTP_URL, from: config.MAIL_FROM, requireTls: config.SMTP_REQUIRE_TLS, rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
  };
}

/**
 * The check a service makes before it serves (its main.ts; its admin CLI reads the same keys and
 * sends no e-mail, so it does not): in queue mode the jobs are sealed under MAIL_SEALING_KEY, and
 * without it no e-mail could ever leave, so the service refuses to start and says which key to set.
 */
export function requireDeliveryKeys(config: Pick<DeliveryConfig, 'DELIVERY_MODE' | 'MAIL_SEALING_KEY'>): void {
  if (config.DELIVERY_MODE === 'queue' && config.MAIL_SEALING_KEY === undefined) {
    throw new ConfigError(
      "invalid configuration:\n  MAIL_SEALING_KEY: required with DELIVERY_MODE=queue (the default): 32 random bytes as 64 hex characters or base64 (openssl rand -hex 32), the same as the mailer's; or DELIVERY_MODE=inline to send e-mail over SMTP_URL from this service",
    );
  }
}

import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export type MailTransport = ReturnType<typeof createMailTransport>;

/**
 * A pooled SMTP transport: up to CONCURRENCY connections, reused between messages. Retrying is
 * BullMQ's job alone (backoff, attempt count, status report), so the pool never requeues a
 * message itself, and nodemailer never reads files or URLs named in a message.
 */
export function createMailTransport(config: Config) {
  return nodemailer.createTransport(
    {
      pool: true,
      url: config.SMTP_URL,
      maxConnections: config.CONCURRENCY,
      maxRequeues: 0,
      requireTLS: config.SMTP_REQUIRE_TLS,
      tls: { rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: config.MAIL_FROM },
  );
}

import nodemailer from 'nodemailer';

export type MailTransport = ReturnType<typeof createMailTransport>;

export interface TransportOptions {
  /** nodemailer URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  from: string;
  maxConnections: number;
  requireTls: boolean;
  rejectUnauthorized: boolean;
}

/**
 * A pooled SMTP transport: up to `maxConnections` connections, reused between messages. Retrying
 * belongs to the caller (BullMQ in the mailer, the outbox in the secrets service's inline mode),
 * so the pool never requeues a message itself, and nodemailer never reads files or URLs named in
 * a message.
 */
export function createMailTransport(o: TransportOptions) {
  return nodemailer.createTransport(
    {
      pool: true,
      url: o.smtpUrl,
      maxConnections: o.maxConnections,
      maxRequeues: 0,
      requireTLS: o.requireTls,
      tls: { rejectUnauthorized: o.rejectUnauthorized },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: o.from },
  );
}

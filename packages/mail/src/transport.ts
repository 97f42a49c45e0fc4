import type { SendMailOptions, Transporter } from 'nodemailer';
import { withSpan } from '@hush/telemetry';

/** What sending needs of a transport: a message out, the pool closed. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<{ messageId: string }>;
  close(): void;
}

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
 * a message. nodemailer is loaded with the first message: a process that has sent nothing yet
 * (an idle mailer, a service whose e-mail goes through the queue) holds none of its code.
 */
export function createMailTransport(o: TransportOptions): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const open = () => (transporter ??= import('nodemailer').then((m) => pooled(m.default, o)));
  // Traced, a send is a client span naming the server, never the message's addresses.
  const server = new URL(o.smtpUrl);
  const span = {
    role: 'client',
    attributes: { 'network.protocol.name': 'smtp', 'server.address': server.hostname, 'server.port': Number(server.port || (server.protocol === 'smtps:' ? 465 : 587)) },
  } as const;
  return {
    sendMail: (message) => withSpan('smtp send', span, async () => (await open()).sendMail(message)),
    close() {
      void transporter?.then((t) => t.close());
    },
  };
}

function pooled(nodemailer: (typeof import('nodemailer'))['default'], o: TransportOptions): Transporter {
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

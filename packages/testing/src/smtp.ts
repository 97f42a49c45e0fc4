import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';

/** An SMTP error reply as smtp-server sends it: `responseCode` and the text. */
export function smtpReply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

export interface Received {
  to: string[];
  mail: ParsedMail;
  at: number;
}

export interface TestSmtpOptions {
  /** Decides each RCPT TO: an error to reject it, nothing to accept. `attempt` counts per address. */
  onRcpt?(address: string, attempt: number): Error | undefined;
  /** Called when a message's DATA starts; resolve the returned promise to answer 250. */
  beforeAccept?(to: string[]): Promise<void> | void;
}

export interface TestSmtp {
  url: string;
  received: Received[];
  rcptAttempts(address: string): number;
  to(address: string): Received[];
  /** Waits until `count` messages to `address` arrived. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (no TLS, no auth) whose messages are parsed with mailparser.
 * Both libraries load here, at the first server of a test file, not with @hush/testing: most test
 * files send no mail, and each file loads its modules anew (Jest's registry is per file).
 */
export async function startSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const [{ simpleParser }, { SMTPServer }] = await Promise.all([import('mailparser'), import('smtp-server')]);
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      const attempt = (attempts.get(address.address) ?? 0) + 1;
      attempts.set(address.address, attempt);
      callback(options.onRcpt?.(address.address, attempt) ?? null);
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address);
      simpleParser(stream)
        .then(async (mail) => {
          await options.beforeAccept?.(to);
          received.push({ to, mail, at: Date.now() });
          callback(null);
        })
        .catch((err: Error) => callback(err));
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => received.filter((r) => r.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    rcptAttempts: (address) => attempts.get(address) ?? 0,
    to,
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} message(s) to ${address}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import type { NodemailerError } from 'nodemailer';

/**
 * How a failed send is treated (RFC 5321 §4.2.1 reply classes):
 * - a 5xx reply to the message or its recipient is permanent: retrying gets the same answer;
 * - a recipient address that nodemailer refuses before talking to the server is permanent;
 * - a 4xx reply, a lost connection, a timeout or DNS failure is temporary: BullMQ retries;
 * - authentication and TLS failures are temporary even with a 5xx reply (535): they are our
 *   configuration, not the message, and mail should leave once an operator fixes it;
 * - anything unknown is temporary (retries are bounded by the job's attempts).
 * The reason never quotes the server's text, which usually repeats the address.
 */
export interface SendFailure {
  permanent: boolean;
  /** Short, address-free, e.g. "550 recipient rejected" or "ETIMEDOUT connection problem". */
  reason: string;
}

const configurationCodes = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ETLS', 'EREQUIRETLS', 'ECONFIG', 'EPROXY']);

const subjects: Record<string, string> = {
  'RCPT TO': 'recipient',
  'MAIL FROM': 'sender',
  DATA: 'message',
};

export function classifySendError(error: unknown): SendFailure {
  const err = (typeof error === 'object' && error !== null ? error : {}) as NodemailerError;
  const code = typeof err.code === 'string' ? err.code : undefined;
  const responseCode = typeof err.responseCode === 'number' ? err.responseCode : undefined;

  if (code && configurationCodes.has(code)) {
    return { permanent: false, reason: `${responseCode ? `${responseCode} ` : ''}${code} SMTP authentication or TLS failure` };
  }
  if (responseCode !== undefined) {
    // nodemailer sets `permanent` from the reply class (5xx except 503); older replies lack it.
    const permanent = typeof err.permanent === 'boolean' ? err.permanent : responseCode >= 500 && responseCode < 600 && responseCode !== 503;
    const what = subjects[err.command ?? ''] ?? 'mail';
    return { permanent, reason: `${responseCode} ${what} ${permanent ? 'rejected' : 'deferred'} by the SMTP server` };
  }
  if (code === 'EENVELOPE') {
    return { permanent: true, reason: 'invalid recipient address' };
  }
  return { permanent: false, reason: `${code ?? 'unknown'} connection problem` };
}

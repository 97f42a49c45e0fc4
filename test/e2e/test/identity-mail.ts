import { randomBytes } from 'node:crypto';
import { capturingLogger, startSmtp, testRedisUrl, type TestSmtp } from '@hush/testing';
import { startIdentity, type Harness } from '../../../services/identity/test/harness.js';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';

export interface IdentityMail {
  identity: Harness;
  smtp: TestSmtp;
  mailer: Mailer;
  mailerLogs: string[];
  close(): Promise<void>;
}

/**
 * Identity and the mailer, in-process, sharing a queue prefix and MAIL_SEALING_KEY, with a real
 * SMTP server: identity's account e-mails travel its outbox → BullMQ → mailer → SMTP, and the
 * outcome comes back on identity's status queue.
 */
export async function startIdentityWithMailer(env: Record<string, string> = {}): Promise<IdentityMail> {
  const prefix = `e2e-id-${randomBytes(5).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  const smtp = await startSmtp();
  const identity = await startIdentity({ QUEUE_PREFIX: prefix, MAIL_SEALING_KEY: key, RELAY_INTERVAL_MS: '100', MAIL_BACKOFF_MS: '100', MAIL_ATTEMPTS: '4', ...env });
  const { logger, logs: mailerLogs } = capturingLogger('mailer-identity-e2e');
  const mailer = await serveMailer(
    readMailerConfig({ REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, SMTP_URL: smtp.url, MANAGEMENT_PORT: '0', MAIL_SEALING_KEY: key, LOG_LEVEL: 'debug' }),
    logger,
  );
  return {
    identity,
    smtp,
    mailer,
    mailerLogs,
    async close() {
      await mailer.close();
      await identity.close();
      await smtp.close();
    },
  };
}

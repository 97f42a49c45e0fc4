import { randomBytes } from 'node:crypto';
import { capturingLogger, startSmtp, TcpProxy, testRedisUrl, type TestSmtp, type TestSmtpOptions } from '@hush/testing';
import { startSecrets, type Harness } from '../../../services/secrets/test/harness.js';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';

/** A proxy in front of the test Redis that a test can cut and restore (see TcpProxy). */
export class RedisProxy extends TcpProxy {
  constructor() {
    super(testRedisUrl);
  }

  get url(): string {
    return this.via(testRedisUrl);
  }
}

export interface System {
  secrets: Harness;
  smtp: TestSmtp;
  mailer: Mailer;
  mailerLogs: string[];
  startMailer(): Promise<void>;
  close(): Promise<void>;
}

/** The secrets service and the mailer, in-process, sharing a queue prefix, with a real SMTP server. */
export async function startSystem(
  opts: { redisUrl?: string; smtp?: TestSmtpOptions; startMailer?: boolean; secretsEnv?: Record<string, string>; mailerEnv?: Record<string, string> } = {},
): Promise<System> {
  const prefix = `e2e-${randomBytes(5).toString('hex')}`;
  const redisUrl = opts.redisUrl ?? testRedisUrl;
  const smtp = await startSmtp(opts.smtp ?? {});
  const secrets = await startSecrets({
    QUEUE_PREFIX: prefix,
    REDIS_URL: redisUrl,
    RELAY_INTERVAL_MS: '100',
    MAIL_BACKOFF_MS: '100',
    MAIL_ATTEMPTS: '4',
    SMTP_URL: smtp.url,
    ...opts.secretsEnv,
  });
  const { logger, logs: mailerLogs } = capturingLogger('mailer-e2e');
  const config = readMailerConfig({
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    SMTP_URL: smtp.url,
    MANAGEMENT_PORT: '0',
    MAIL_SEALING_KEY: secrets.env['MAIL_SEALING_KEY'],
    LOG_LEVEL: 'debug',
    ...opts.mailerEnv,
  });
  const system: System = {
    secrets,
    smtp,
    mailer: undefined as unknown as Mailer,
    mailerLogs,
    async startMailer() {
      system.mailer = await serveMailer(config, logger);
    },
    async close() {
      await system.mailer?.close();
      await secrets.close();
      await smtp.close();
    },
  };
  if (opts.startMailer !== false) await system.startMailer();
  return system;
}

export { eventually } from '@hush/testing';

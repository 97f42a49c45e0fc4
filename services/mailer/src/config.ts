import { linkKeySealingKeys, loadConfig, managementKeys, previousSealingKeys, processKeys, requireSealingKey, queueKeys, redisKeys, smtpKeys } from '@hush/common/base';
import { z } from 'zod';

export const configSchema = z.object({
  ...redisKeys(),
  ...queueKeys(),
  ...previousSealingKeys(),
  ...smtpKeys(),
  /** Opens the key of a zero-knowledge link identity hands over (docs/zero-knowledge.md): identity's value. */
  ...linkKeySealingKeys(),
  /**
   * Jobs (and pooled SMTP connections) handled at once by this process; and one more of each of
   * the mail queue's previous names, which hold only jobs queued before an upgrade.
   */
  CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  ...managementKeys(9002),
  ...processKeys(),
  /** Seconds to wait for the in-flight jobs on SIGTERM/SIGINT before exiting anyway. */
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(30),
});

/** The mailer only consumes the queue: its sealing key is always required. */
export type Config = z.infer<typeof configSchema> & { MAIL_SEALING_KEY: Buffer };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return requireSealingKey(loadConfig(configSchema, env));
}

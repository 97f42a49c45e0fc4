import { bool, loadConfig, logLevel, port } from '@hush/common/base';
import { z } from 'zod';

const schema = z.object({
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** BullMQ key prefix; must match the producer's (services/secrets). Tests use a unique one. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits, "_", ".", ":" and "-" only')
    .default('hush'),
  /** nodemailer connection URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  SMTP_URL: z
    .url()
    .refine((u) => /^smtps?:\/\//i.test(u), 'must start with smtp:// or smtps://')
    .default('smtp://127.0.0.1:1025'),
  /** Verify the SMTP server's certificate; turn off only for a local relay with a self-signed one. */
  SMTP_TLS_REJECT_UNAUTHORIZED: bool(true),
  /** Refuse to send unless the server upgrades the connection with STARTTLS. */
  SMTP_REQUIRE_TLS: bool(false),
  MAIL_FROM: z.string().min(3).max(300).default('Hush <no-reply@localhost>'),
  /** Jobs (and pooled SMTP connections) handled at once by this process. */
  CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /** Port of the health and metrics HTTP server. */
  PORT: port(3002),
  LOG_LEVEL: logLevel(),
  /**
   * Once the process falls quiet after start, and after a busy spell that grew it by 16 MB, hand
   * the memory V8 no longer needs back to the system (@hush/common idle-compaction.ts; a 20-100 ms
   * pause, only while nothing is served).
   */
  IDLE_COMPACTION: bool(true),
  /** Seconds to wait for the in-flight jobs on SIGTERM/SIGINT before exiting anyway. */
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(30),
});

export type Config = z.infer<typeof schema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(schema, env);
}

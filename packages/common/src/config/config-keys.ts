import { z } from 'zod';
import { bool, ConfigError, key256, key256List, logLevel, port } from './config.js';
import { DEFAULT_REVOCATIONS_CHANNEL } from '../auth/revocations.js';
import { trustProxy } from '../http/trust-proxy.js';

/**
 * The configuration keys the services share, declared once: each service's schema spreads the
 * fragments it reads and adds its own keys (`z.object({ ...httpServiceKeys(...), OWN_KEY: ... })`).
 * A key means the same in every service that reads it; a key whose meaning differs between
 * services does not belong here.
 */

/** A duration in whole seconds, at least `min`. */
export const seconds = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

/** Every process: how much it logs, and whether it hands idle memory back. */
export const processKeys = () => ({
  LOG_LEVEL: logLevel(),
  /**
   * Once the process falls quiet after start, and after a busy spell that grew it by 16 MB, hand
   * the memory V8 no longer needs back to the system (idle-compaction.ts; a 20-100 ms pause, only
   * while nothing is served).
   */
  IDLE_COMPACTION: bool(true),
});

/**
 * The management port: /healthz, /readyz and /metrics (management.ts), apart from the public
 * port, which answers 404 to them. Each service has its own default, so the three can run on one
 * machine (identity 9000, as Keycloak's; secrets 9001; the mailer 9002).
 */
export const managementKeys = (fallback: number) => ({
  MANAGEMENT_PORT: port(fallback),
});

/** The Redis server; several services and deployments may share one. */
export const redisKeys = () => ({
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Longest wait (ms) for a Redis connection or command. */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
});

/** What tells one HTTP service from the other in the keys they share. */
export interface HttpServiceDefaults {
  port: number;
  /** Its management port (health and metrics). */
  managementPort: number;
  /** Name of its PostgreSQL database on the local default server. */
  database: string;
  /** Prefix of its Redis keys. */
  redisPrefix: string;
}

/**
 * The HTTP services' shared keys (identity, secrets): where they listen, their PostgreSQL and
 * Redis with the limits that keep a stopped or hung one from hanging requests (what `connect`
 * reads), the revocation channel between them, their root key and proxy trust.
 */
export const httpServiceKeys = (defaults: HttpServiceDefaults) => ({
  PORT: port(defaults.port),
  ...managementKeys(defaults.managementPort),
  ...processKeys(),
  DATABASE_URL: z.url().default(`postgres://postgres@127.0.0.1:5432/${defaults.database}`),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * Longest wait (ms) on the database: for a pooled connection, to connect, for one statement.
   * Past it the request answers 503 with Retry-After instead of hanging with the database.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  ...redisKeys(),
  /** Prefix of this service's Redis keys (several deployments may share one Redis). */
  REDIS_PREFIX: z.string().min(1).default(defaults.redisPrefix),
  /**
   * Redis key and pub/sub channel of revocation events (ADR 10): identity writes revoked access
   * tokens, grants and deleted clients there; the secrets API loads and follows them. Not under
   * REDIS_PREFIX: both services must name the same one.
   */
  REVOCATIONS_CHANNEL: z.string().min(1).default(DEFAULT_REVOCATIONS_CHANNEL),
  /** Root of every key the service derives or encrypts with. Required: there is no default. */
  MASTER_KEY: key256('generate one with: openssl rand -hex 32'),
  /**
   * Older root keys that still open what they sealed while a rotation is under way (comma-separated,
   * newest first; docs/deploy.md "Rotating MASTER_KEY"): nothing new is sealed under them, and the
   * `rewrap` command moves what they sealed under MASTER_KEY. Empty by default.
   */
  MASTER_KEYS_PREVIOUS: key256List('the keys MASTER_KEY replaced'),
  /**
   * The proxies whose X-Forwarded-For/-Proto give the client IP (which the per-IP limits count)
   * and HTTPS: `false`, a hop count, or their addresses/CIDRs, as Express's `trust proxy` (trust-proxy.ts).
   */
  TRUST_PROXY: trustProxy(),
});

/** The parsed values of `httpServiceKeys`. */
export type HttpServiceConfig = z.infer<z.ZodObject<ReturnType<typeof httpServiceKeys>>>;

/**
 * The key that seals a zero-knowledge link's key for the mailer (identity's credential handover,
 * docs/zero-knowledge.md): identity seals it, the secrets service passes it on without being able
 * to open it, the mailer opens it and puts it in the e-mail's link. Identity's and the mailer's
 * must be equal; the secrets service must not have it. Unset: handovers are encrypted by the
 * secrets service, as before.
 */
export const linkKeySealingKeys = () => ({
  LINK_KEY_SEALING_KEY: key256('generate one with: openssl rand -hex 32; the same in identity and the mailer, never in the secrets service').optional(),
});

/** The BullMQ queues between the producers (identity, the secrets service) and the mailer (consumer). */
export const queueKeys = () => ({
  /** BullMQ key prefix; the producer's and the consumer's must be equal. Tests use a unique one. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits, "_", ".", ":" and "-" only')
    .default('hush'),
  /**
   * The key the e-mail jobs are sealed under (packages/queue sealed-job.ts): the producer's and the
   * consumer's must be equal, and no one else holds it, so Redis holds no usable link or address.
   * Not MASTER_KEY: the mailer must not hold a service's root key. Required wherever a queue is
   * used: by the mailer (`requireSealingKey`), by identity and the secrets service in queue mode
   * (@hush/delivery's `requireDeliveryKeys`).
   */
  MAIL_SEALING_KEY: key256('generate one with: openssl rand -hex 32; the same in the mailer and the services that queue e-mail').optional(),
});

/**
 * The consumer's (the mailer's) other sealing keys while MAIL_SEALING_KEY is rotated
 * (comma-separated, newest first): the jobs sealed under them are still opened and delivered;
 * nothing is sealed under them. The producers seal under MAIL_SEALING_KEY alone. Empty by default.
 */
export const previousSealingKeys = () => ({
  MAIL_SEALING_KEYS_PREVIOUS: key256List('the keys MAIL_SEALING_KEY replaced'),
});

/** The check behind "required wherever a queue is used": the message names the key and how to make one. */
export function requireSealingKey<T extends { MAIL_SEALING_KEY?: Buffer | undefined }>(config: T): T & { MAIL_SEALING_KEY: Buffer } {
  if (config.MAIL_SEALING_KEY === undefined) {
    throw new ConfigError(
      'invalid configuration:\n  MAIL_SEALING_KEY: required: 32 random bytes as 64 hex characters or base64 (openssl rand -hex 32), the same as in the services that queue e-mail (identity, secrets)',
    );
  }
  return config as T & { MAIL_SEALING_KEY: Buffer };
}

/** The SMTP relay and sender of the e-mails to recipients (the mailer; the secrets service in inline mode). */
export const smtpKeys = () => ({
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
});

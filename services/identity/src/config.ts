import { bool, DEFAULT_REVOCATIONS_CHANNEL, key256, loadConfig, logLevel, port } from '@hush/common';
import { z } from 'zod';

export const REALM_PATH = '/auth/realms/public';

const schema = z.object({
  PORT: port(8080),
  /**
   * Public origin of the service; the issuer is `${AUTH_URL}/auth/realms/public`. Every URL the
   * service publishes or redirects to is built from it, never from Host or X-Forwarded-*.
   */
  AUTH_URL: z
    .url()
    .default('http://localhost:8080')
    .transform((u) => u.replace(/\/+$/, ''))
    // The endpoints are served at /auth/realms/public of the origin; a path here would be in the issuer only.
    .refine((u) => new URL(u).pathname === '/' && !/[?#@]/.test(u), 'must be an origin (scheme://host[:port]) without a path, query or fragment'),
  DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/hush_identity'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * Longest wait (ms) on the database: for a pooled connection, to connect, for one statement.
   * Past it the request answers 503 with Retry-After instead of hanging with the database.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Longest wait (ms) for a Redis connection or command. */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Prefix of this service's Redis keys (several deployments may share one Redis). */
  REDIS_PREFIX: z.string().min(1).default('hush:identity:'),
  /**
   * Redis key and pub/sub channel of revocation events (ADR 10): revoked access tokens, grants and
   * deleted clients, which resource servers (secrets' REVOCATIONS_CHANNEL) load and follow.
   * Not under REDIS_PREFIX: both services must name the same one.
   */
  REVOCATIONS_CHANNEL: z.string().min(1).default(DEFAULT_REVOCATIONS_CHANNEL),
  /** Encrypts private signing keys and derives cookie keys. Required: there is no default. */
  MASTER_KEY: key256('generate one with: openssl rand -hex 32'),
  LOG_LEVEL: logLevel(),
  /**
   * Once the process falls quiet after start, and after a busy spell that grew it by 16 MB, hand
   * the memory V8 no longer needs back to the system (@hush/common idle-compaction.ts; a 20-100 ms
   * pause, only while nothing is served).
   */
  IDLE_COMPACTION: bool(true),
  /**
   * Keep client records in memory, invalidated through PostgreSQL LISTEN/NOTIFY on one extra
   * connection per process (src/clients/client-cache.ts). Off: every token request reads its
   * client row (for a database that allows a single connection, such as the embedded one).
   */
  CLIENT_CACHE: bool(true),
  /** Trust X-Forwarded-For/-Proto for the client IP and HTTPS (only behind a TLS-terminating proxy you run). */
  TRUST_PROXY: bool(false),
  /** How often (seconds) each process reloads signing keys from the database. */
  KEY_RELOAD_INTERVAL: z.coerce.number().int().min(1).default(30),
  /**
   * The realm's token signature algorithm (Keycloak's realm "default signature algorithm"): for
   * clients without their own (`clients create --signing-alg`). RS256, as Keycloak: its adapters
   * (keycloak-connect) verify RS256 only. ES256 signs ~20 times faster (ADR 4).
   */
  DEFAULT_SIGNING_ALG: z.enum(['RS256', 'ES256']).default('RS256'),
  /** bcrypt cost for user passwords. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(15).default(12),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 3600),
  /** Failed client authentications allowed per client (from any IP) and per IP in one window; past them, further failures get 429. */
  CLIENT_AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  CLIENT_AUTH_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  /**
   * Per-client failure counters are kept per bucket of a hash of the presented client id, so made-up
   * ids cannot add Redis keys without bound: at most this many (a few MB at the default).
   */
  CLIENT_AUTH_BUCKETS: z.coerce.number().int().min(1).max(1_048_576).default(65_536),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_WINDOW: z.coerce.number().int().min(1).default(300),
});

export type Config = z.infer<typeof schema> & { issuer: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(schema, env);
  return { ...config, issuer: `${config.AUTH_URL}${REALM_PATH}` };
}

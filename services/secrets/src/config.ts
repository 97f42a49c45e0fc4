import { bool, ConfigError, httpServiceKeys, loadConfig, seconds } from '@hush/common';
import { WEB_CLIENT_ID } from '@hush/contracts';
import { deliveryKeys } from '@hush/delivery';
import { z } from 'zod';
import { PLAN_NAMES, type PlanName } from './accounts/plans.js';
import { API_MOUNT } from './http/api.routes.js';

const trimSlash = (u: string) => u.replace(/\/+$/, '');

export const configSchema = z.object({
  ...httpServiceKeys({ port: 3000, managementPort: 9001, database: 'hush_secrets', redisPrefix: 'hush:secrets:' }),
  /** Public origin of this service; the API lives under `${BASE_URL}/api/v1`. */
  BASE_URL: z.url().default('http://localhost:3000').transform(trimSlash),
  /** Issuer of the access tokens we accept (identity's realm URL). */
  IDENTITY_ISSUER: z.url().default('http://localhost:8080/auth/realms/public').transform(trimSlash),
  /** Where identity publishes its signing keys; default `${IDENTITY_ISSUER}/protocol/openid-connect/certs`. */
  IDENTITY_JWKS_URL: z.url().optional(),
  /** The `aud` our access tokens must carry; default `${BASE_URL}/api/v1` (identity's SECRETS_API_AUDIENCE). */
  API_AUDIENCE: z.string().min(1).optional(),
  /**
   * Longest time (ms) the revocation feed is trusted without a sign of life (a heartbeat every
   * quarter of it). A connection that dies silently is noticed within it; meanwhile and until the
   * feed is loaded again, bearer tokens are answered 503.
   */
  REVOCATIONS_MAX_LAG_MS: z.coerce.number().int().min(400).max(60_000).default(4000),
  /** Secret lifetime in seconds: the default when `ttl` is absent, and the accepted bounds. */
  TTL_DEFAULT: seconds(7 * 24 * 3600),
  TTL_MIN: seconds(60),
  TTL_MAX: seconds(30 * 24 * 3600),
  /**
   * Seconds a secret's receipt (its lifecycle: created, delivered, read, burned or expired, by
   * whom when known) is kept at least after the secret's lifetime ends, and a secret request
   * after its link closed. The content itself is destroyed when the secret is read, burned or
   * expires, whatever this says. 0: the receipt lives 2 x ttl, as in Onetime Secret.
   */
  RECEIPT_RETENTION: seconds(30 * 24 * 3600, 0),
  /**
   * Plan of accounts that have none set (see src/accounts/plans.ts). Unset: `basic`, or `pro`
   * under API_DIALECT=onetimesecret, whose clients expect onetimesecret.com's 10,000 characters
   * for an account.
   */
  DEFAULT_PLAN: z.enum(PLAN_NAMES).optional(),
  /**
   * Shapes of /api/v1 (docs/api-dialects.md): `spec` (default) answers as docs/api.md describes;
   * `onetimesecret` answers as Onetime Secret v1 does, so its existing clients work unchanged
   * (nested burn, recipient arrays, 404 `{"message"}` errors, clamped ttl...).
   */
  API_DIALECT: z.enum(['spec', 'onetimesecret']).default('spec'),
  /**
   * Share and generate without credentials (as Onetime Secret allows), answered as custid `anon`.
   * Off by default. Anonymous secrets have their own size limit and per-IP rate limit, cannot
   * have a recipient, and are never listed in `recent`.
   */
  ANONYMOUS_SHARES: bool(false),
  ANONYMOUS_MAX_SECRET_LENGTH: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** Anonymous shares and generates per client IP per window (0 disables this limit). */
  ANONYMOUS_RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(20),
  ANONYMOUS_RATE_LIMIT_WINDOW: seconds(1200),
  /** bcrypt cost for passphrases (tests lower it; never below 10 in production). */
  PASSPHRASE_HASH_COST: z.coerce.number().int().min(4).max(15).default(12),
  /**
   * Largest file a zero-knowledge secret carries, in bytes of content (docs/zero-knowledge.md);
   * its encrypted records stream into PostgreSQL, so memory does not grow with it.
   */
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /** Wrong passphrases a secret survives: the attempt that reaches this number burns it. */
  PASSPHRASE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  /** bcrypt worker threads; 0 = one per CPU core. */
  PASSPHRASE_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  /**
   * Passphrases (to hash or to check) that may wait for a bcrypt worker; one more is refused at
   * once with 503 and Retry-After, so a flood never makes the service hold requests for long.
   */
  PASSPHRASE_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /**
   * Seconds an instance remembers a valid API token (saves a query per request). A token revoked
   * through the API stops at once on the instance that revoked it, elsewhere within this time.
   * 0 disables the cache.
   */
  API_TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /** Seconds between two runs of the sweeper that deletes expired rows. */
  SWEEP_INTERVAL: seconds(30),
  /**
   * Rows the sweeper deletes per statement. A backlog (millions of secrets expired while the
   * service was down) is worked off in statements of this many rows, each short, each leaving the
   * rows a share or a read holds, with a pause as long as the last statement between two.
   */
  SWEEP_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Requests per caller (account, or IP address for reads) per window; 0 disables the limit. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(0).default(600),
  RATE_LIMIT_WINDOW: seconds(60),
  /** Failed authentications (wrong API token or access token) per client IP per window, then 429. */
  AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(30),
  AUTH_FAILURE_WINDOW: seconds(300),
  // E-mail to recipients and creators: through the mail queue to the mailer (packages/delivery).
  ...deliveryKeys(),

  // The web app (src/web/): people sign in through identity and share from a browser.
  /** Client id registered by identity's `bootstrap` for the web app. */
  WEB_CLIENT_ID: z.string().min(1).default(WEB_CLIENT_ID),
  /** Its client secret (identity's SECRETS_WEB_CLIENT_SECRET). Unset: the web app is off; `/` says so. */
  WEB_CLIENT_SECRET: z.string().min(1).optional(),
  /** Where this service reaches identity when its public URL is not reachable from here (compose, k8s); default IDENTITY_ISSUER's origin. */
  IDENTITY_INTERNAL_URL: z
    .url()
    .optional()
    .transform((u) => (u === undefined ? undefined : trimSlash(u))),
  /** A web session ends after this many seconds without a request... */
  WEB_SESSION_IDLE: seconds(30 * 60, 60),
  /** ...and this many seconds after sign-in, whatever happens. */
  WEB_SESSION_MAX: seconds(12 * 3600, 60),
});

type Raw = z.infer<typeof configSchema>;
export type ApiDialectName = Raw['API_DIALECT'];

/** Anonymous share/generate (ANONYMOUS_SHARES and its limits), read once from the config. */
export interface AnonymousSharesConfig {
  enabled: boolean;
  /** Longest anonymous secret, in characters (the anonymous plan). */
  maxSecretLength: number;
  /** Per client IP per window; max 0 disables the limit. */
  rateLimit: { max: number; windowSeconds: number };
}

export type Config = Omit<Raw, 'IDENTITY_JWKS_URL' | 'API_AUDIENCE' | 'DEFAULT_PLAN'> & {
  DEFAULT_PLAN: PlanName;
  IDENTITY_JWKS_URL: string;
  API_AUDIENCE: string;
  anonymousShares: AnonymousSharesConfig;
};

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = loadConfig(configSchema, env);
  if (raw.TTL_MIN > raw.TTL_MAX || raw.TTL_DEFAULT < raw.TTL_MIN || raw.TTL_DEFAULT > raw.TTL_MAX) {
    throw new ConfigError('invalid configuration:\n  TTL_MIN <= TTL_DEFAULT <= TTL_MAX must hold');
  }
  return {
    ...raw,
    DEFAULT_PLAN: raw.DEFAULT_PLAN ?? (raw.API_DIALECT === 'onetimesecret' ? 'pro' : 'basic'),
    IDENTITY_JWKS_URL: raw.IDENTITY_JWKS_URL ?? `${raw.IDENTITY_ISSUER}/protocol/openid-connect/certs`,
    API_AUDIENCE: raw.API_AUDIENCE ?? `${raw.BASE_URL}${API_MOUNT}`,
    anonymousShares: {
      enabled: raw.ANONYMOUS_SHARES,
      maxSecretLength: raw.ANONYMOUS_MAX_SECRET_LENGTH,
      rateLimit: { max: raw.ANONYMOUS_RATE_LIMIT_MAX, windowSeconds: raw.ANONYMOUS_RATE_LIMIT_WINDOW },
    },
  };
}

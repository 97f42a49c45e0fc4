import { bool, httpServiceKeys, loadConfig, seconds } from '@hush/common';
import { z } from 'zod';

export const REALM_PATH = '/auth/realms/public';

export const configSchema = z.object({
  ...httpServiceKeys({ port: 8080, managementPort: 9000, database: 'hush_identity', redisPrefix: 'hush:identity:' }),
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
  /**
   * Where the consoles (account, admin) reach identity itself for their back-channel calls (token,
   * userinfo) when AUTH_URL is not reachable from inside (behind an ingress): e.g.
   * http://127.0.0.1:8080. Unset: AUTH_URL.
   */
  CONSOLES_INTERNAL_URL: z
    .url()
    .optional()
    .transform((u) => (u === undefined ? undefined : u.replace(/\/+$/, ''))),
  /**
   * Keep client records in memory, invalidated through PostgreSQL LISTEN/NOTIFY on one extra
   * connection per process (src/clients/client-cache.ts). Off: every token request reads its
   * client row (for a database that allows a single connection, such as the embedded one).
   */
  CLIENT_CACHE: bool(true),
  /** How often (seconds) each process reloads signing keys from the database. */
  KEY_RELOAD_INTERVAL: seconds(30),
  /**
   * The realm's token signature algorithm (Keycloak's realm "default signature algorithm"): for
   * clients without their own (`clients create --signing-alg`). RS256, as Keycloak: its adapters
   * (keycloak-connect) verify RS256 only. ES256 signs ~20 times faster (ADR 4).
   */
  DEFAULT_SIGNING_ALG: z.enum(['RS256', 'ES256']).default('RS256'),
  /** bcrypt cost for user passwords. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(15).default(12),
  REFRESH_TOKEN_TTL: seconds(14 * 24 * 3600, 60),
  /**
   * Failed client authentications allowed per client (from any IP) and per IP in one
   * AUTH_FAILURE_WINDOW; past them, further failures get 429.
   */
  CLIENT_AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  CLIENT_AUTH_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  /**
   * Per-client failure counters are kept per bucket of a hash of the presented client id, so made-up
   * ids cannot add Redis keys without bound: at most this many (a few MB at the default).
   */
  CLIENT_AUTH_BUCKETS: z.coerce.number().int().min(1).max(1_048_576).default(65_536),
  /** Failed sign-ins allowed per (username, IP) and per IP in one AUTH_FAILURE_WINDOW. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  /**
   * Wrong second-factor codes (TOTP or recovery codes) allowed per person in one
   * AUTH_FAILURE_WINDOW, at sign-in and at enrolment; past them every code is refused (429) until
   * the window ends. A million TOTP codes at 5 a window are out of reach.
   */
  SECOND_FACTOR_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  /**
   * Keep each client secret also sealed under a key derived from MASTER_KEY, so the admin API's
   * `GET /clients/{id}/client-secret` can answer it (Keycloak's tools read secrets back). Off:
   * secrets are shown once, at creation or rotation, and that call answers 404.
   */
  CLIENT_SECRET_READBACK: bool(true),
  /**
   * Audit events (Keycloak's), until `PUT /auth/admin/realms/public/events/config` changes them:
   * record user events (sign-ins, token requests, sign-outs and their failures), admin events
   * (what the admin API changed), the admin events' representations (secrets always removed), and
   * keep them this many seconds (0: for ever). Written in batches, off the request's path.
   */
  EVENTS_ENABLED: bool(true),
  ADMIN_EVENTS_ENABLED: bool(true),
  ADMIN_EVENTS_DETAILS_ENABLED: bool(true),
  EVENTS_EXPIRATION: z.coerce
    .number()
    .int()
    .min(0)
    .default(30 * 24 * 3600),
  /** Seconds over which failed client authentications and sign-ins are counted (the limits above). */
  AUTH_FAILURE_WINDOW: seconds(300),
  /**
   * Credential handover (src/handover/): the admin API may hand a new client secret or password to
   * its owner's e-mail address as a one-time secret of the secrets service at SECRETS_URL (its
   * origin; the API is at /api/v1), which identity calls as the confidential client
   * HANDOVER_CLIENT_ID (registered by `bootstrap` with HANDOVER_CLIENT_SECRET, at least 32
   * characters) with a client-credentials token of its own realm. Either unset: handover is off.
   * HANDOVER_TTL: seconds the one-time link lives.
   */
  SECRETS_URL: z
    .url()
    .optional()
    .transform((u) => u?.replace(/\/+$/, '')),
  HANDOVER_CLIENT_ID: z.string().min(1).default('hush-handover'),
  HANDOVER_CLIENT_SECRET: z.string().min(32).optional(),
  HANDOVER_TTL: seconds(3 * 24 * 3600, 60),
});

export type Config = z.infer<typeof configSchema> & { issuer: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(configSchema, env);
  return { ...config, issuer: `${config.AUTH_URL}${REALM_PATH}` };
}

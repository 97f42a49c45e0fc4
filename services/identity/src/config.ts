import { bool, httpServiceKeys, linkKeySealingKeys, loadConfig, seconds } from '@hush/common';
import { HANDOVER_CLIENT_ID } from '@hush/contracts';
import { deliveryKeys } from '@hush/delivery';
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
   * Where identity reaches itself (same paths as under AUTH_URL) when AUTH_URL is not reachable from
   * inside (behind an ingress), e.g. http://127.0.0.1:8080: the consoles' back-channel calls (token,
   * userinfo), the admin console's admin API calls, and the handover client's token request.
   * Unset: AUTH_URL.
   */
  INTERNAL_URL: z
    .url()
    .optional()
    .transform((u) => u?.replace(/\/+$/, ''))
    .refine((u) => u === undefined || (new URL(u).pathname === '/' && !/[?#@]/.test(u)), 'must be an origin (scheme://host[:port]) without a path, query or fragment'),
  /**
   * Keep client records in memory, invalidated through PostgreSQL LISTEN/NOTIFY on one extra
   * connection per process (src/clients/client-cache.ts). Off: every token request reads its
   * client row (for a database that allows a single connection, such as the embedded one).
   */
  CLIENT_CACHE: bool(true),
  /** How often (seconds) each process reloads signing keys from the database. */
  KEY_RELOAD_INTERVAL: seconds(30),
  /**
   * Rows per statement of the minute's sweeps (expired protocol artifacts, events past
   * EVENTS_EXPIRATION, spent account-action links): a backlog is worked off in short statements
   * of this many rows, with a pause as long as the last one between two, never one long transaction.
   */
  SWEEP_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /**
   * The realm's token signature algorithm (Keycloak's realm "default signature algorithm"): for
   * clients without their own (`clients create --signing-alg`). RS256, as Keycloak: its adapters
   * (keycloak-connect) verify RS256 only. ES256 signs ~20 times faster (ADR 4).
   */
  DEFAULT_SIGNING_ALG: z.enum(['RS256', 'ES256']).default('RS256'),
  /** bcrypt cost for user passwords. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(15).default(12),
  /**
   * bcrypt worker threads (password hashing never runs on the event loop; the workers run at the
   * lowest CPU priority, so token requests go first while sign-ins flood); 0 = one per CPU core.
   */
  PASSWORD_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  /**
   * Passwords (to check or to hash) that may wait for a bcrypt worker; one more is refused at once
   * with 503 and Retry-After instead of waiting (~0.25 s each per worker at cost 12).
   */
  PASSWORD_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
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
  /** Sign-ins (password forms) one IP may have in progress at once on one instance; one more gets 429 at once. */
  LOGIN_CONCURRENCY_PER_IP: z.coerce.number().int().min(1).default(4),
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
  HANDOVER_CLIENT_ID: z.string().min(1).default(HANDOVER_CLIENT_ID),
  HANDOVER_CLIENT_SECRET: z.string().min(32).optional(),
  HANDOVER_TTL: seconds(3 * 24 * 3600, 60),
  /**
   * Zero-knowledge handover (docs/zero-knowledge.md): set (the same value as the mailer's, never
   * the secrets service's), identity encrypts the credential itself and seals the link's key for
   * the mailer, so the secrets service never holds the credential. Unset: the secrets service
   * encrypts it, as before.
   */
  ...linkKeySealingKeys(),

  // E-mail to people about their account (password reset, execute-actions, address confirmation):
  // through the mail queue to the mailer, as the secrets service sends its own (packages/delivery).
  ...deliveryKeys(),
  /** Seconds a "Forgot password?" link works (once). */
  RESET_LINK_LIFESPAN: seconds(15 * 60, 60),
  /**
   * Default seconds an execute-actions e-mail's link works (Keycloak's default: 12 hours; the
   * call's `lifespan` overrides it), and a self-registered account's confirmation link.
   */
  ACTIONS_LINK_LIFESPAN: seconds(12 * 3600, 60),
  /** Password-reset requests per typed username or address, and per IP, in one RESET_WINDOW; then 429. */
  RESET_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
  RESET_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  RESET_WINDOW: seconds(3600),
  /**
   * Self-registration: a "Register" link on the login page; the address must be confirmed (a link
   * by e-mail) before the first sign-in. Registrations (and resends) per IP per RESET_WINDOW.
   */
  REGISTRATION: bool(false),
  REGISTRATION_MAX_PER_IP: z.coerce.number().int().min(1).default(10),
  /**
   * Anonymous work bounded per IP, in one SIGN_IN_WINDOW: sign-ins started (requests to the
   * authorization, device authorization and pushed authorization request endpoints, each of
   * which stores something) and login pages viewed; past either, 429 with Retry-After. Behind a
   * NAT many people share an address (and keycloak-js's check-sso starts one per page load):
   * raise them there.
   */
  SIGN_IN_MAX_PER_IP: z.coerce.number().int().min(1).default(120),
  LOGIN_PAGE_MAX_PER_IP: z.coerce.number().int().min(1).default(120),
  SIGN_IN_WINDOW: seconds(60),
  /**
   * Seconds a started sign-in may take, from the authorization request to its answer: its stored
   * interaction (and cookie) live that long. Ten minutes: the slowest path through one sign-in
   * (a password, then setting up TOTP or a passkey ceremony) fits, as the second step's own
   * state does (10 minutes); Keycloak's default login timeout is 30.
   */
  INTERACTION_TTL: z.coerce.number().int().min(60).max(3600).default(600),
});

/** `issuer`: the realm's public issuer; `internalUrl`: INTERNAL_URL, else AUTH_URL. */
export type Config = z.infer<typeof configSchema> & { issuer: string; internalUrl: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = loadConfig(configSchema, env);
  return { ...config, issuer: `${config.AUTH_URL}${REALM_PATH}`, internalUrl: config.INTERNAL_URL ?? config.AUTH_URL };
}

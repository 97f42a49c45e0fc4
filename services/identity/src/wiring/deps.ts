import { RateLimits, type Infrastructure, type Logger } from '@hush/common';
import { accountMailOf, type AccountActionsDeps } from '../account-links/index.js';
import { clientAuthLimits, ClientCache, type ClientLookup } from '../clients/index.js';
import type { Config } from '../config.js';
import type { ConsoleSignInOptions } from '../console-sign-in/index.js';
import { createContext } from '../context.js';
import { EventRecorder, eventsDefaults, recordProviderEvents } from '../events/index.js';
import { createIdentityMetrics } from '../http/index.js';
import { KEY_LABELS } from '../key-labels.js';
import { secondFactorDeps, signInLimits } from '../login/index.js';
import { ApiCatalog } from '../oidc/api-catalog.js';
import { createProtocol } from '../oidc/protocol.js';
import { adminRolesOf } from '../roles/index.js';

/**
 * What identity's features are built from, made once: the repositories (context.ts), the limits,
 * the e-mail relay, the events recorder, the provider's life and the keys derived from the
 * MASTER_KEY ring (each sealing and signing under the newest key, opening and verifying under any). Each feature's `mount…` takes the Pick of it that it needs.
 */
export function createDeps(config: Config, infra: Infrastructure) {
  const { db, redis } = infra;
  const logger: Logger = infra.logger;
  const context = createContext(config, db, redis, logger);
  const cache = config.CLIENT_CACHE ? new ClientCache(context.clients, config.DATABASE_URL, logger) : undefined;
  const clients: ClientLookup = cache ?? context.clients;
  // Failures counted in Redis, shared by every instance: each flow defines its own limits on them.
  const failures = new RateLimits(redis, `${config.REDIS_PREFIX}fail:`);
  const limiter = { ...signInLimits(failures, config), ...clientAuthLimits(failures, config) };
  const { masterKeys } = context;
  const outboxKey = masterKeys.derive(KEY_LABELS.mailOutbox);
  // E-mail about people's accounts: the shared outbox relay to the mailer (or SMTP, inline).
  const mail = accountMailOf(config, { outbox: context.mailOutbox, outboxKey, logger });
  const accountActions: AccountActionsDeps & { defaultLifespanSeconds: number } = {
    tokens: context.actionTokens,
    users: context.users,
    passwords: context.passwords,
    outboxKey,
    issuer: config.issuer,
    mailWritten: () => mail.kick(),
    defaultLifespanSeconds: config.ACTIONS_LINK_LIFESPAN,
  };
  const metrics = createIdentityMetrics({ keysFingerprint: () => protocol.fingerprint(), loadedKeys: () => context.signingKeys.loaded() });
  const events = new EventRecorder(context.eventsRepository, eventsDefaults(config), logger, { unwritten: metrics.eventsUnwritten });
  // The realm-management roles an admin API token carries: a user's, or its client's service-account user's.
  const adminRoles = async (who: { userId: string } | { clientId: string }) => {
    const userId = 'userId' in who ? who.userId : (await context.users.findServiceAccount(who.clientId))?.id;
    return userId ? adminRolesOf(context, userId) : [];
  };
  const protocol = createProtocol({
    config,
    db,
    clients,
    webOrigins: context.clients,
    users: context.users,
    apis: new ApiCatalog(context.apis),
    limiter,
    // Anonymous work bounded per IP: sign-ins started (oidc/keycloak/sign-in-starts.ts).
    signInStarts: limiter.limits.define('sign-in-ip', config.SIGN_IN_MAX_PER_IP, config.SIGN_IN_WINDOW),
    // Signed under the first (the newest MASTER_KEY's), checked under each.
    cookieKeys: masterKeys.derive(KEY_LABELS.cookies).keys.map(({ key }) => key.toString('base64url')),
    keys: { privateJwks: () => context.signingKeys.privateJwks(), fingerprint: () => context.keysRepository.fingerprint() },
    refreshEnvelopeKey: masterKeys.derive(KEY_LABELS.refreshEnvelopes),
    logger,
    revocations: context.revocations,
    adminRoles,
    consents: context.consents,
  });
  protocol.onBuilt((provider) => metrics.observe(provider));
  protocol.onBuilt((provider) => recordProviderEvents(provider, events));
  // The CSRF key of every page's forms, and what both consoles' sign-ins share.
  const csrfKey = masterKeys.derive(KEY_LABELS.csrf);
  const consoleRealm: Omit<ConsoleSignInOptions, 'console'> = {
    issuer: config.issuer,
    authUrl: config.AUTH_URL,
    internalUrl: config.internalUrl,
    idTokenAlg: config.DEFAULT_SIGNING_ALG,
    logger,
    sessionKey: masterKeys.derive(KEY_LABELS.consoleSessions),
    csrfKey,
  };
  return {
    config,
    db,
    redis,
    logger,
    context,
    cache,
    clients,
    limiter,
    mail,
    accountActions,
    metrics,
    events,
    adminRoles,
    protocol,
    csrfKey,
    consoleRealm,
    /** The second factor's and passkeys' deps (login's second step and the account console's security pages). */
    mfa: secondFactorDeps(config, context, redis),
  };
}

export type Deps = ReturnType<typeof createDeps>;

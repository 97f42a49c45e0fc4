import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type Provider from 'oidc-provider';
import { databaseReadiness, managementEndpoints, periodic, textInput, trustFunction, type ServiceApp } from '@hush/common';
import { accountConsole } from './account/account.routes.js';
import { adminTransactions, createAdminApi, ADMIN_MOUNT } from './admin/index.js';
import { ACCOUNT_CONSOLE, ADMIN_CONSOLE, consoleSignIn } from './consoles/index.js';
import { adminConsole, adminConsoleRedirect } from './admin-console/admin-console.js';
import { ApiCatalog } from './apis/api-catalog.js';
import { adminRolesOf } from './roles/index.js';
import { EventRecorder, recordProviderEvents } from './events/index.js';
import { ClientCache } from './clients/client-cache.js';
import { invalidatingLocally } from './clients/local-invalidation.js';
import { REALM_PATH } from './config.js';
import { createContext, type Context, type Infrastructure } from './context.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { createIdentityMetrics } from './http/metrics.js';
import { requestLog } from './http/request-log.js';
import { interactionRoutes } from './interactions/interactions.routes.js';
import { accountActionRoutes } from './interactions/account-actions.routes.js';
import { AccountMail, type AccountActionsDeps } from './account-actions/index.js';
import { sweepExpired } from './oidc/adapter.repository.js';
import { directDispatch, type EveryRequest } from './oidc/direct-dispatch.js';
import { SIGNING_ALGS } from './keys/keys.js';
import { buildProvider } from './oidc/provider.js';
import { PROTOCOL } from './oidc/routes.js';
import { envelopeKeys, type EnvelopeKeys } from './oidc/token-envelope.js';
import { accountTokenVerifier } from './account/account-token.js';
import { accessTokenLiveness } from './revocations/access-token-liveness.js';
import { createFailureLimits } from './ratelimit/failure-limits.js';
import { loginGate } from './ratelimit/login-gate.js';
import type { Config } from './config.js';
import { KEY_LABELS } from './key-labels.js';
import { secondStep, WEBAUTHN_SCRIPT_URL } from './interactions/second-step.routes.js';
import { secondFactorDeps, securityConsole, SECURITY_PATH, webauthnScript } from './mfa/index.js';

export interface IdentityApp extends ServiceApp {
  /** The request listener for node:http (oidc-provider's protocol routes bypass Express; see oidc/direct-dispatch.ts). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  context: Context;
  /** The relay of account e-mails (tests await `relayAll()`). */
  mail: AccountMail;
  /**
   * Loads the signing keys (the first start of an empty database creates one) and builds the
   * provider, then starts the client cache's listener and the key-reload and sweep timers.
   * Until it resolves, protocol requests are answered 503.
   */
  start(): Promise<void>;
  /** Stops what start() started; the caller owns and closes the database and Redis. */
  close(): Promise<void>;
  /** Rebuilds the provider when the published key set changed; true if it did. */
  reloadKeys(): Promise<boolean>;
  /** Removes expired protocol artifacts and events past their retention; how many rows went. */
  sweep(): Promise<number>;
}

/** Builds the identity app; it never listens, and touches nothing until start(). */
export function createIdentityApp(config: Config, infra: Infrastructure): IdentityApp {
  const { db, redis, logger } = infra;
  const context = createContext(config, db, redis, logger);
  const apis = new ApiCatalog(context.apis);
  const cache = config.CLIENT_CACHE ? new ClientCache(context.clients, config.DATABASE_URL, logger) : undefined;
  const clients = cache ?? context.clients;
  const limiter = createFailureLimits(redis, config);
  // Anonymous work bounded per IP: sign-ins started (oidc/keycloak/sign-in-starts.ts) and login pages viewed.
  const signInStarts = limiter.limits.define('sign-in-ip', config.SIGN_IN_MAX_PER_IP, config.SIGN_IN_WINDOW);
  const loginPageViews = limiter.limits.define('login-page-ip', config.LOGIN_PAGE_MAX_PER_IP, config.SIGN_IN_WINDOW);
  const { masterKeys } = context;
  // Signed under the first (the newest MASTER_KEY's), checked under each.
  const cookieKeys = masterKeys.derive(KEY_LABELS.cookies).keys.map(({ key }) => key.toString('base64url'));
  const outboxKey = masterKeys.derive(KEY_LABELS.mailOutbox);
  // E-mail about people's accounts: the shared outbox relay to the mailer (or SMTP, inline).
  const mail = new AccountMail(
    { outbox: context.mailOutbox, outboxKey, logger },
    {
      mode: config.DELIVERY_MODE,
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      sealingKey: config.MAIL_SEALING_KEY,
      attempts: config.MAIL_ATTEMPTS,
      backoffMs: config.MAIL_BACKOFF_MS,
      relayIntervalMs: config.RELAY_INTERVAL_MS,
      requeueAfterSeconds: config.MAIL_REQUEUE_AFTER,
      requeueLimit: config.MAIL_REQUEUE_LIMIT,
      smtp: { url: config.SMTP_URL, from: config.MAIL_FROM, requireTls: config.SMTP_REQUIRE_TLS, rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED },
    },
  );
  const accountActions: AccountActionsDeps & { defaultLifespanSeconds: number } = {
    tokens: context.actionTokens,
    users: context.users,
    passwords: context.passwords,
    outboxKey,
    issuer: config.issuer,
    mailWritten: () => mail.kick(),
    defaultLifespanSeconds: config.ACTIONS_LINK_LIFESPAN,
  };
  /** Without its sealing key a queue-mode relay cannot seal jobs: e-mails wait in the outbox. */
  const mailReady = config.DELIVERY_MODE === 'inline' || config.MAIL_SEALING_KEY !== undefined;

  // The published key set as `kid:status,...`, as last loaded; '' until start().
  let fingerprint = '';
  const metrics = createIdentityMetrics({ keysFingerprint: () => fingerprint, loadedKeys: () => context.signingKeys.loaded() });
  const refreshEnvelopeKey = masterKeys.derive(KEY_LABELS.refreshEnvelopes);
  const events = new EventRecorder(
    context.eventsRepository,
    {
      eventsEnabled: config.EVENTS_ENABLED,
      adminEventsEnabled: config.ADMIN_EVENTS_ENABLED,
      adminEventsDetailsEnabled: config.ADMIN_EVENTS_DETAILS_ENABLED,
      enabledEventTypes: [],
      eventsExpiration: config.EVENTS_EXPIRATION || null,
    },
    logger,
    { unwritten: metrics.eventsUnwritten },
  );
  /** Retention: events older than the realm's eventsExpiration go. */
  const sweepEvents = async (signal?: AbortSignal) => {
    const expiration = events.settings().eventsExpiration;
    return expiration ? context.eventsRepository.deleteOlderThan(expiration, config.SWEEP_BATCH_SIZE, signal) : 0;
  };
  /** Expired protocol artifacts, events past their retention, spent account-action links: each in bounded batches. */
  const sweepAll = async (signal: AbortSignal) => {
    for (const [what, sweepOne] of [
      ['sweep', () => sweepExpired(db, config.SWEEP_BATCH_SIZE, signal)],
      ['events retention sweep', () => sweepEvents(signal)],
      ['action token sweep', () => context.actionTokens.sweep(config.SWEEP_BATCH_SIZE, signal)],
    ] as const) {
      await sweepOne().catch((err: unknown) => logger.error({ err }, `${what} failed`));
    }
  };
  const adminDeps = { ...context, clients: invalidatingLocally(context.clients, cache), events, accountActions };
  const admin = createAdminApi({
    deps: adminDeps,
    transaction: adminTransactions(adminDeps, context.inTransaction, cache),
    authUrl: config.AUTH_URL,
    issuer: config.issuer,
    logger,
    check: {
      clientEnabled: async (clientId) => (await clients.find(clientId))?.enabled === true,
      userEnabled: async (userId) => (await context.users.findById(userId))?.enabled === true,
    },
  });
  // The realm-management roles an admin API token carries: a user's, or its client's service-account user's.
  const adminRoles = async (who: { userId: string } | { clientId: string }) => {
    const userId = 'userId' in who ? who.userId : (await context.users.findServiceAccount(who.clientId))?.id;
    return userId ? adminRolesOf(context, userId) : [];
  };
  // The envelope keys of the provider last built (the account REST API opens access tokens with them).
  let envelopesInUse: EnvelopeKeys | undefined;
  const currentEnvelopeKeys = (): EnvelopeKeys => {
    if (!envelopesInUse) throw new Error('identity app not started');
    return envelopesInUse;
  };
  const makeProvider = async () => {
    const jwks = await context.signingKeys.privateJwks();
    admin.verifier.useKeys(jwks);
    const envelopes = await envelopeKeys(config.issuer, jwks, refreshEnvelopeKey);
    envelopesInUse = envelopes;
    return buildProvider({
      config,
      db,
      clients,
      webOrigins: context.clients,
      users: context.users,
      apis,
      limiter,
      signInStarts,
      jwks,
      envelopeKeys: envelopes,
      cookieKeys,
      logger,
      revocations: context.revocations,
      adminRoles,
    });
  };

  // There is no runtime key swap in oidc-provider; a new key set means a new Provider instance.
  // All of its state lives in PostgreSQL, so swapping instances between requests loses nothing.
  let provider: Provider | undefined;
  let handler: ProviderListener = notStarted;
  const currentProvider = (): Provider => {
    if (!provider) throw new Error('identity app not started');
    return provider;
  };
  const useKeys = async (current: string) => {
    provider = metrics.observe(await makeProvider());
    recordProviderEvents(provider, events);
    handler = provider.callback();
    fingerprint = current;
  };
  const reloadKeys = async () => {
    const current = await context.keysRepository.fingerprint();
    if (current === fingerprint) return false;
    await useKeys(current);
    logger.info({ keys: current }, 'signing keys reloaded');
    return true;
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustFunction(config.TRUST_PROXY));
  // Every request, including the protocol routes that skip Express (see directDispatch below).
  const everyRequest: EveryRequest[] = [requestLog(logger), metrics.http.middleware];
  app.use(...everyRequest);
  // The input layer: a path or query that is not text is refused here, before any route; the
  // protocol routes' bodies are checked before oidc-provider reads them (oidc/keycloak/request-text.ts),
  // every other body by its parser (body-parser's `verify`).
  app.use(textInput({ apis: [ADMIN_MOUNT, `${REALM_PATH}${PROTOCOL}`, `${REALM_PATH}/.well-known`] }));
  // Health and metrics are served on the management port only; the public port answers them 404.
  const management = managementEndpoints({
    registry: metrics.http.registry,
    health: {
      checks: {
        database: databaseReadiness(db),
        // Tokens can only be signed with an active key of their algorithm, loaded by start() or the last reload.
        keys: async () => {
          if (fingerprint.split(',').filter((key) => key.endsWith(':active')).length < SIGNING_ALGS.length) throw new Error('no active signing key of every algorithm loaded');
        },
      },
      // Requests carry on without Redis (test/faults redis-outage): reported, never unready.
      reported: { redis: () => redis.ping() },
    },
  });

  // Keycloak's admin REST API (its own body parser and error shapes: admin/).
  app.use(ADMIN_MOUNT, admin.router);
  // The consoles (before the realm's catch-all below) sign in through the console module: one
  // ConsoleSignIn per console, shared by every router of that console (the account console's
  // security pages take `accountSignIn` too, mounted at `${ACCOUNT_CONSOLE.mount}/security`).
  const consoleKeys = { sessionKey: masterKeys.derive(KEY_LABELS.consoleSessions), csrfKey: masterKeys.derive(KEY_LABELS.csrf) };
  const consoleRealm = {
    issuer: config.issuer,
    authUrl: config.AUTH_URL,
    internalUrl: config.internalUrl,
    idTokenAlg: config.DEFAULT_SIGNING_ALG,
    logger,
    ...consoleKeys,
  };
  const accountSignIn = consoleSignIn({ console: ACCOUNT_CONSOLE, ...consoleRealm });
  const mfa = secondFactorDeps(config, context, redis);
  app.get(WEBAUTHN_SCRIPT_URL, webauthnScript());
  app.use(SECURITY_PATH, securityConsole({ ...mfa, signIn: accountSignIn, users: context.users, limiter, events, logger }));
  app.use(
    ACCOUNT_CONSOLE.mount,
    accountConsole({
      signIn: accountSignIn,
      account: context,
      clientName: async (clientId) => (await clients.find(clientId))?.name ?? clientId,
      api: {
        verify: accountTokenVerifier({
          provider: currentProvider,
          envelopeKeys: currentEnvelopeKeys,
          isLive: (payload) => accessTokenLiveness(currentProvider(), context.revocations)(payload),
        }),
        clients,
        isWebOrigin: (origin) => context.clients.isWebOrigin(origin),
      },
      limiter,
      events,
      logger,
    }),
  );
  // The admin console: its pages call the admin API above (at INTERNAL_URL) with the signed-in administrator's token.
  app.get('/auth/admin', adminConsoleRedirect());
  app.use(
    ADMIN_CONSOLE.mount,
    adminConsole({ signIn: consoleSignIn({ console: ADMIN_CONSOLE, ...consoleRealm }), apiUrl: config.internalUrl, rolesOf: (userId) => adminRolesOf(context, userId), logger }),
  );
  // Before the interaction routes: their `/login-actions/:uid` would take these pages' names.
  app.use(
    REALM_PATH,
    accountActionRoutes({
      actions: { ...accountActions, sessions: context.sessions, revocations: context.revocations },
      users: context,
      limits: {
        limits: limiter.limits,
        resetPerAddress: limiter.limits.define('reset', config.RESET_MAX_PER_ADDRESS, config.RESET_WINDOW),
        resetPerIp: limiter.limits.define('reset-ip', config.RESET_MAX_PER_IP, config.RESET_WINDOW),
        registerPerIp: limiter.limits.define('register-ip', config.REGISTRATION_MAX_PER_IP, config.RESET_WINDOW),
      },
      resetLifespanSeconds: config.RESET_LINK_LIFESPAN,
      verifyLifespanSeconds: config.ACTIONS_LINK_LIFESPAN,
      registration: config.REGISTRATION,
      csrfKey: masterKeys.derive(KEY_LABELS.csrf),
      origin: new URL(config.AUTH_URL).origin,
      logger,
      events,
    }),
  );
  app.use(
    REALM_PATH,
    interactionRoutes({
      provider: currentProvider,
      users: context,
      limiter,
      pageViews: loginPageViews,
      loginGate: loginGate(context.passwords, config.LOGIN_CONCURRENCY_PER_IP),
      csrfKey: masterKeys.derive(KEY_LABELS.csrf),
      origin: new URL(config.AUTH_URL).origin,
      logger,
      events,
      secondStep: secondStep({ ...mfa, users: context.users, limiter, events }),
      registration: config.REGISTRATION,
    }),
  );
  // Keycloak's realm root; oidc-provider needs the raw body, so no body parser before it.
  app.use(REALM_PATH, (req, res) => {
    void handler(req, res);
  });

  app.use(notFound);
  app.use(errorHandler(logger));

  let timers: NodeJS.Timeout[] = [];
  let sweeping: { stop(): Promise<void> } | undefined;
  return {
    handler: directDispatch({ express: app, before: everyRequest, provider: () => handler }),
    management,
    context,
    mail,
    async start() {
      // Made now, so that no sign-in waits for it and no flood of them can keep it from being made.
      await context.passwords.dummyHash();
      await context.signingKeys.ensureActive();
      await useKeys(await context.keysRepository.fingerprint());
      await cache?.start();
      await events.start();
      if (mailReady) await mail.start();
      else logger.warn('MAIL_SEALING_KEY is not set: account e-mails (password reset, execute-actions, address confirmation) wait in the outbox until it is');
      timers = [setInterval(() => void reloadKeys().catch((err) => logger.error({ err }, 'key reload failed')), config.KEY_RELOAD_INTERVAL * 1000)];
      timers.forEach((t) => t.unref());
      sweeping = periodic(60_000, sweepAll, () => undefined);
    },
    async close() {
      timers.forEach(clearInterval);
      timers = [];
      const swept = sweeping?.stop();
      cache?.stop();
      // Before the caller closes the database: buffered events are written, none lost; the relay's
      // statuses in flight are recorded.
      await Promise.all([events.close(), mail.close(), swept]);
      // The service's Redis connection stays the caller's to close; this ends the revocation retries.
      await Promise.all([context.revocations.close(), context.passwords.close()]);
    },
    reloadKeys,
    sweep: async () => (await sweepExpired(db, config.SWEEP_BATCH_SIZE)) + (await sweepEvents()),
  };
}

type ProviderListener = ReturnType<Provider['callback']>;

/** Protocol requests before start(): the provider does not exist yet. */
const notStarted: ProviderListener = async (_req, res) => {
  res.statusCode = 503;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'starting' }));
};

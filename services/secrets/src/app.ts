import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import express from 'express';
import { apiSecurity, BcryptPool, databaseReadiness, managementEndpoints, textInput, trustFunction, warnIfRedisVolatile, type ServiceApp } from '@hush/common';
import { deliveryOptions } from '@hush/delivery';
import { AccessTokenVerifier } from './auth/access-tokens.js';
import { createAuthenticator } from './auth/authenticate.js';
import type { Config } from './config.js';
import { createContext, createSecretsDeps, createZkDeps, type Context, type Infrastructure } from './context.js';
import { compileEndpoints, type CompiledEndpoint } from './http/api-route.js';
import { API_MOUNT, API_ROUTES } from './http/api.routes.js';
import { parseBody } from './http/body.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { expressServerOptions, fastApi } from './http/fast-api.js';
import { openApiDocument } from './http/openapi.js';
import { RateLimiter, authFailureLimit } from './http/rate-limit.js';
import { requestLog } from './http/request-log.js';
import { Passphrases } from './passphrase/passphrases.js';
import type { SecretsDeps } from './secrets/deps.js';
import { apiDialect } from './http/dialect.js';
import { startSweeper, sweep, sweepSettings } from './secrets/sweeper.js';
import { createSecretsMetrics } from './http/metrics.js';
import { Delivery } from './delivery/delivery.js';
import { OutboxRepository } from './delivery/outbox.repository.js';
import { createWebApp, type WebApp } from './web/web.js';
import { RevocationFeed } from './revocations/revocation-feed.js';

export interface SecretsApp extends ServiceApp {
  /** The request listener for node:http: the API's routes directly (http/fast-api.ts), the rest through Express. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** The server's options: requests and responses born with Express's prototypes (http/fast-api.ts). */
  serverOptions: ServerOptions;
  /** The same app with every request through Express (what `handler` hands over what it does not serve itself). */
  express: express.Express;
  context: Context;
  /** Starts the outbox relay, the delivery-status worker, the sweeper timer and the revocation feed. */
  start(): Promise<void>;
  /** One sweeper run now (the timer also runs it every SWEEP_INTERVAL seconds). */
  sweep(): Promise<{ secrets: number; metadata: number; sealedKeys: number }>;
  /** The outbox relay and delivery-status worker (e-mail to recipients). */
  delivery: Delivery;
  /** The pages (src/web/): reveal, receipt and the creator's web app. */
  web: WebApp;
  /** Stops what start() started and the bcrypt workers; the caller owns and closes the database and Redis. */
  close(): Promise<void>;
}

/** Builds the secrets app; it never listens, and starts no timer, queue or worker until start(). */
export function createSecretsApp(config: Config, infra: Infrastructure): SecretsApp {
  const { db, redis, logger } = infra;
  const context = createContext(config, db);
  const pool = new BcryptPool({ size: config.PASSPHRASE_WORKERS || availableParallelism(), queue: config.PASSPHRASE_QUEUE });
  const outbox = new OutboxRepository(db);
  const delivery = new Delivery({ outbox, crypto: context.crypto, logger, redis }, deliveryOptions(config));
  const metrics = createSecretsMetrics({ queueDepth: () => delivery.queueDepth(), outboxPending: () => outbox.pending() });
  const deps: SecretsDeps = createSecretsDeps(context, {
    passphrases: new Passphrases(pool, config.PASSPHRASE_HASH_COST),
    outboxWritten: () => delivery.kick(),
    events: metrics.events,
  });
  const zk = createZkDeps(context, deps);
  const revocations = new RevocationFeed(
    redis,
    { redisUrl: config.REDIS_URL, channel: config.REVOCATIONS_CHANNEL, maxLagMs: config.REVOCATIONS_MAX_LAG_MS, timeoutMs: config.REDIS_TIMEOUT_MS },
    logger,
  );
  const verifier = new AccessTokenVerifier({ jwksUrl: config.IDENTITY_JWKS_URL, issuer: config.IDENTITY_ISSUER, audience: config.API_AUDIENCE }, revocations);
  const auth = createAuthenticator(context, verifier, authFailureLimit(redis, config));
  const limiter = new RateLimiter(redis, config.REDIS_PREFIX, config.RATE_LIMIT_MAX, config.RATE_LIMIT_WINDOW);
  const anonymousLimiter = new RateLimiter(redis, config.REDIS_PREFIX, config.anonymousShares.rateLimit.max, config.anonymousShares.rateLimit.windowSeconds, 'anon');
  const dialect = apiDialect(config.API_DIALECT, deps.settings.ttl);
  const openapi = openApiDocument(config);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustFunction(config.TRUST_PROXY));
  const everyRequest = [requestLog(logger), metrics.http.middleware];
  for (const m of everyRequest) app.use(m);
  // The input layer: a path or query that is not text is refused here, before any route (the fast
  // path hands such a request to Express); every body by the API's parser (http/body.ts) or the
  // pages' form reader.
  app.use(textInput({ apis: [API_MOUNT] }));

  // Health and metrics are served on the management port only; the public port answers them 404.
  const management = managementEndpoints({
    registry: metrics.http.registry,
    health: {
      checks: { database: databaseReadiness(db) },
      // Requests carry on without Redis (test/faults redis-outage; the outbox keeps e-mail until it is back): reported, never unready.
      reported: { redis: () => redis.ping() },
    },
  });

  // Responses carry keys and values: never cached, never sniffed, never leaked through Referer.
  const security = apiSecurity();
  const endpoints = compileEndpoints(
    API_ROUTES,
    { secrets: deps, zk, accounts: context, dialect, openapi },
    { auth, limiter, anonymousShares: config.anonymousShares.enabled, anonymousLimiter },
  );
  app.use(API_MOUNT, apiRouter(endpoints, security));
  // The pages: reveal and receipt, and the creator's web app (sign-in through identity, share, My secrets, API tokens).
  const web = createWebApp(config, deps, zk, context, limiter, logger, revocations, config.anonymousShares.enabled ? { anonymous: { limiter: anonymousLimiter } } : {});
  app.use(web.router);

  app.use(notFound);
  const errors = errorHandler(logger, dialect);
  app.use(errors);

  let sweeper: { stop(): Promise<void> } | undefined;
  return {
    handler: fastApi({ app, mount: API_MOUNT, everyRequest, api: [security], parseBody, endpoints, errorHandler: errors, notFound }),
    serverOptions: expressServerOptions(app),
    management,
    express: app,
    context,
    async start() {
      await delivery.start();
      if (config.DELIVERY_MODE === 'queue')
        warnIfRedisVolatile(redis, logger, "queued e-mail jobs (re-queued from the outbox after MAIL_REQUEUE_AFTER) and the mailer's sent markers (duplicate e-mails possible)");
      sweeper = startSweeper(context.sweeps, sweepSettings(config), logger, metrics.expired);
      web.start();
      await revocations.start();
    },
    sweep: () => sweep(context.sweeps, sweepSettings(config)),
    delivery,
    web,
    async close() {
      const swept = sweeper?.stop();
      web.close();
      revocations.close();
      await Promise.all([pool.close(), delivery.close(), swept]);
    },
  };
}

/** The API under Express: security headers, then the endpoints that ignore the body, the body parser, the rest; in table order. */
function apiRouter(endpoints: readonly CompiledEndpoint[], security: express.RequestHandler): express.Router {
  const api = express.Router();
  api.use(security);
  for (const e of endpoints) if (!e.readsBody) api[e.method](e.path, ...e.stack);
  api.use(parseBody);
  for (const e of endpoints) if (e.readsBody) api[e.method](e.path, ...e.stack);
  return api;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type Provider from 'oidc-provider';
import { createHttpMetrics, deriveKey } from '@hush/common';
import { Counter, Gauge } from 'prom-client';
import { ApiCatalog } from './apis/api-catalog.js';
import { ClientCache } from './clients/client-cache.js';
import { REALM_PATH } from './config.js';
import { createContext, type Context, type Infrastructure } from './context.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { requestLog } from './http/request-log.js';
import { interactionRoutes } from './interactions/interactions.routes.js';
import { sweepExpired } from './oidc/adapter.repository.js';
import { directDispatch, type EveryRequest } from './oidc/direct-dispatch.js';
import { buildProvider } from './oidc/provider.js';
import { createFailureLimits } from './ratelimit/failure-limits.js';
import type { Config } from './config.js';

export interface IdentityApp {
  /** The request listener for node:http (oidc-provider's protocol routes bypass Express; see oidc/direct-dispatch.ts). */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  context: Context;
  /** Rebuilds the provider when the published key set changed; true if it did. */
  reloadKeys(): Promise<boolean>;
  sweep(): Promise<number>;
  /** Stops the background timers; the caller owns and closes the database and Redis. */
  stop(): void;
}

/** Builds the identity app (never listens). Keys: the first start of an empty database creates one. */
export async function createIdentityApp(config: Config, infra: Infrastructure): Promise<IdentityApp> {
  const { db, redis, logger } = infra;
  const context = createContext(config, db);
  const apis = new ApiCatalog(context.apis);
  const cache = config.CLIENT_CACHE ? new ClientCache(context.clients, config.DATABASE_URL, logger) : undefined;
  const clients = cache ?? context.clients;
  const limiter = createFailureLimits(redis, config);
  const cookieKeys = [deriveKey(config.MASTER_KEY, 'hush identity cookies v1').toString('base64url')];

  await context.signingKeys.ensureActive();
  let fingerprint = await context.keysRepository.fingerprint();
  const makeProvider = async () =>
    buildProvider({ config, db, clients, users: context.users, apis, limiter, jwks: await context.signingKeys.privateJwks(), cookieKeys });

  // There is no runtime key swap in oidc-provider; a new key set means a new Provider instance.
  // All of its state lives in PostgreSQL, so swapping instances between requests loses nothing.
  const metrics = createHttpMetrics('identity');
  const tokens = new Counter({ name: 'hush_identity_tokens_issued_total', help: 'Successful token endpoint responses by grant type', labelNames: ['grant_type'], registers: [metrics.registry] });
  const tokenErrors = new Counter({ name: 'hush_identity_token_errors_total', help: 'Token endpoint errors by OAuth error code', labelNames: ['error'], registers: [metrics.registry] });
  const logins = new Counter({ name: 'hush_identity_authorizations_total', help: 'Completed authorization requests', registers: [metrics.registry] });
  new Gauge({
    name: 'hush_identity_signing_keys',
    help: 'Published signing keys by status',
    labelNames: ['status'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const part of fingerprint.split(',').filter(Boolean)) this.inc({ status: part.split(':')[1] ?? 'unknown' });
    },
  });
  const observe = (p: Provider) => {
    p.on('grant.success', (ctx) => tokens.inc({ grant_type: typeof ctx.oidc.params?.grant_type === 'string' ? ctx.oidc.params.grant_type : 'unknown' }));
    p.on('grant.error', (_ctx, err) => tokenErrors.inc({ error: String((err as { error?: string }).error ?? 'server_error') }));
    p.on('authorization.success', () => logins.inc());
    return p;
  };

  let provider: Provider = observe(await makeProvider());
  let handler = provider.callback();
  const reloadKeys = async () => {
    const current = await context.keysRepository.fingerprint();
    if (current === fingerprint) return false;
    provider = observe(await makeProvider());
    handler = provider.callback();
    fingerprint = current;
    logger.info({ keys: current }, 'signing keys reloaded');
    return true;
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Every request, including the protocol routes that skip Express (see directDispatch below).
  const everyRequest: EveryRequest[] = [requestLog(logger), metrics.middleware];
  app.use(...everyRequest);
  app.get('/metrics', metrics.handler);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.allSettled([db.raw('select 1'), redis.ping()]);
    const [database, cache] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unavailable'));
    const ready = database === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', database, redis: cache, keys: 'ok' });
  });

  app.use(
    REALM_PATH,
    interactionRoutes({
      provider: () => provider,
      users: context,
      limiter,
      csrfKey: deriveKey(config.MASTER_KEY, 'hush identity csrf v1'),
      origin: new URL(config.AUTH_URL).origin,
      logger,
    }),
  );
  // Keycloak's realm root; oidc-provider needs the raw body, so no body parser before it.
  app.use(REALM_PATH, (req, res) => {
    void handler(req, res);
  });

  app.use(notFound);
  app.use(errorHandler(logger));

  // Started last: nothing above may fail and leave its connection open.
  await cache?.start();
  const timers = [
    setInterval(() => void reloadKeys().catch((err) => logger.error({ err }, 'key reload failed')), config.KEY_RELOAD_INTERVAL * 1000),
    setInterval(() => void sweepExpired(db).catch((err) => logger.error({ err }, 'sweep failed')), 60_000),
  ];
  timers.forEach((t) => t.unref());

  return {
    app: directDispatch({ express: app, before: everyRequest, provider: () => handler }),
    context,
    reloadKeys,
    sweep: () => sweepExpired(db),
    stop: () => {
      timers.forEach(clearInterval);
      cache?.stop();
    },
  };
}

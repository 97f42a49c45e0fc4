import express from 'express';
import { nonceOf, pageSecurity, type Logger } from '@hush/common';
import type { Config } from '../config.js';
import type { Context } from '../context.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { IdentityClient } from './identity-client.js';
import { WebSessionsRepository } from './sessions.repository.js';
import { WebSessions } from './sessions.js';
import type { Viewer } from '../pages/pages.routes.js';
import { webOffPage } from './views.js';
import { webRoutes, type WebOptions } from './web.routes.js';

export interface WebApp {
  router: express.Router;
  sessions: WebSessions | undefined;
  /** The signed-in user of this request's browser, if any (never redirects to sign in). */
  viewer: Viewer;
  /** Starts the timer deleting expired sessions (every SWEEP_INTERVAL seconds). */
  start(): void;
  close(): void;
}

/**
 * The creator's web app (see docs/web-app.md), wired from the service's configuration; without
 * WEB_CLIENT_SECRET it is off and `/` says how to turn it on.
 */
export function createWebApp(config: Config, deps: SecretsDeps, context: Context, limiter: RateLimiter, logger: Logger, options: WebOptions = {}): WebApp {
  if (!config.WEB_CLIENT_SECRET) {
    const router = express.Router();
    router.get('/', pageSecurity(), (_req, res) => {
      res.status(503).send(webOffPage(nonceOf(res)));
    });
    return { router, sessions: undefined, viewer: () => Promise.resolve(undefined), start() {}, close() {} };
  }
  const identity = new IdentityClient({
    issuer: config.IDENTITY_ISSUER,
    clientId: config.WEB_CLIENT_ID,
    clientSecret: config.WEB_CLIENT_SECRET,
    redirectUri: `${config.BASE_URL}/auth/callback`,
    postLogoutRedirectUri: `${config.BASE_URL}/auth/signed-out`,
    internalUrl: config.IDENTITY_INTERNAL_URL,
  });
  const sessions = new WebSessions(
    new WebSessionsRepository(context.db),
    identity,
    config.MASTER_KEY,
    { idleSeconds: config.WEB_SESSION_IDLE, maxSeconds: config.WEB_SESSION_MAX },
    logger,
  );
  const { router, viewer } = webRoutes(
    { secrets: deps, accounts: context, sessions, identity, limiter, logger, masterKey: config.MASTER_KEY, issuer: config.IDENTITY_ISSUER },
    options,
  );
  let timer: NodeJS.Timeout | undefined;
  return {
    router,
    sessions,
    viewer,
    start() {
      timer = setInterval(() => {
        sessions.sweep().catch((err: unknown) => logger.warn({ err }, 'web session sweep failed'));
      }, config.SWEEP_INTERVAL * 1000);
      timer.unref();
    },
    close() {
      clearInterval(timer);
    },
  };
}

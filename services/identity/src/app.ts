import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { textInput, trustFunction, type ServiceApp } from '@hush/common';
import type { AccountMail } from './account-links/index.js';
import { mountAccountLinks } from './account-links/mount.js';
import { ADMIN_MOUNT, mountAdminApi } from './admin-api/mount.js';
import { mountAdminConsole } from './admin-console/mount.js';
import { REALM_PATH, type Config } from './config.js';
import { ACCOUNT_CONSOLE } from './console-sign-in/index.js';
import type { Context, Infrastructure } from './context.js';
import { errorHandler, lazyRoutes, notFound, requestLog } from './http/index.js';
import { mountLogin } from './login/mount.js';
import { directDispatch, type EveryRequest } from './oidc/direct-dispatch.js';
import { mountProtocol } from './oidc/mount.js';
import { PROTOCOL } from './oidc/routes.js';
import { createDeps } from './wiring/deps.js';
import { lifecycle } from './wiring/lifecycle.js';
import { management } from './wiring/management.js';

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

/**
 * Builds the identity app; it never listens, and touches nothing until start(). What the features
 * share is made once (wiring/deps.ts); each feature mounts itself, in the order below.
 */
export function createIdentityApp(config: Config, infra: Infrastructure): IdentityApp {
  const deps = createDeps(config, infra);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustFunction(config.TRUST_PROXY));
  // Every request, including the protocol routes that skip Express (see directDispatch below).
  const everyRequest: EveryRequest[] = [requestLog(infra.logger), deps.metrics.http.middleware];
  app.use(...everyRequest);
  // The input layer: a path or query that is not text is refused here, before any route; the
  // protocol routes' bodies are checked before oidc-provider reads them (oidc/keycloak/request-text.ts),
  // every other body by its parser (body-parser's `verify`).
  app.use(textInput({ apis: [ADMIN_MOUNT, `${REALM_PATH}${PROTOCOL}`, `${REALM_PATH}/.well-known`] }));

  mountAdminApi(app, deps);
  // The consoles and pages come before the realm's catch-all, which hands the rest to oidc-provider.
  // The account console (and its security pages) loads at its first request (http/lazy-routes.ts).
  app.use(
    lazyRoutes([ACCOUNT_CONSOLE.mount], async () => {
      const { mountAccountConsole } = await import('./account-console/mount.js');
      const routes = express.Router();
      mountAccountConsole(routes, deps);
      return routes;
    }),
  );
  mountAdminConsole(app, deps);
  mountAccountLinks(app, deps);
  mountLogin(app, deps);
  mountProtocol(app, deps);

  app.use(notFound);
  app.use(errorHandler(infra.logger));

  return {
    handler: directDispatch({ express: app, before: everyRequest, provider: deps.protocol.listener }),
    management: management(deps),
    context: deps.context,
    mail: deps.mail,
    ...lifecycle(deps),
  };
}

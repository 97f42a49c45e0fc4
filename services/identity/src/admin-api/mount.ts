import express from 'express';
import type { JWK } from 'jose';
import { invalidatingLocally } from '../clients/index.js';
import { lazyRoutes } from '../http/index.js';
import type { Deps } from '../wiring/deps.js';
import { ADMIN_MOUNT } from './admin-mount.js';
import type { AdminTokenVerifier } from './admin-tokens.js';

export { ADMIN_MOUNT };

/**
 * Keycloak's admin REST API at ADMIN_MOUNT, with its own body parser and error shapes; its tokens
 * are checked with the provider's keys. Its modules load at the first request under ADMIN_MOUNT
 * (http/lazy-routes.ts); the key set of each provider built is kept for it until then.
 */
export function mountAdminApi(app: express.IRouter, deps: Pick<Deps, 'config' | 'logger' | 'context' | 'cache' | 'clients' | 'events' | 'accountActions' | 'protocol'>): void {
  let keys: JWK[] | undefined;
  let verifier: AdminTokenVerifier | undefined;
  deps.protocol.onBuilt((_provider, jwks) => {
    keys = jwks;
    verifier?.useKeys(jwks);
  });
  app.use(
    lazyRoutes([ADMIN_MOUNT], async () => {
      const [{ createAdminApi }, { adminTransactions }] = await Promise.all([import('./admin-api.js'), import('./admin-transaction.js')]);
      const { config, context, cache, clients } = deps;
      const adminDeps = { ...context, clients: invalidatingLocally(context.clients, cache), events: deps.events, accountActions: deps.accountActions };
      const admin = createAdminApi({
        deps: adminDeps,
        transaction: adminTransactions(adminDeps, context.inTransaction, cache),
        authUrl: config.AUTH_URL,
        issuer: config.issuer,
        logger: deps.logger,
        check: {
          clientEnabled: async (clientId) => (await clients.find(clientId))?.enabled === true,
          userEnabled: async (userId) => (await context.users.findById(userId))?.enabled === true,
        },
      });
      if (keys) admin.verifier.useKeys(keys);
      verifier = admin.verifier;
      return express.Router().use(ADMIN_MOUNT, admin.router);
    }),
  );
}

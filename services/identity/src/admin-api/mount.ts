import type express from 'express';
import { invalidatingLocally } from '../clients/index.js';
import type { Deps } from '../wiring/deps.js';
import { ADMIN_MOUNT, createAdminApi } from './admin-api.js';
import { adminTransactions } from './admin-transaction.js';

/** Keycloak's admin REST API at ADMIN_MOUNT, with its own body parser and error shapes; its tokens are checked with the provider's keys. */
export function mountAdminApi(app: express.Express, deps: Pick<Deps, 'config' | 'logger' | 'context' | 'cache' | 'clients' | 'events' | 'accountActions' | 'protocol'>): void {
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
  deps.protocol.onBuilt((_provider, jwks) => {
    admin.verifier.useKeys(jwks);
  });
  app.use(ADMIN_MOUNT, admin.router);
}

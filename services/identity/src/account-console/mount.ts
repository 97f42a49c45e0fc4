import type express from 'express';
import { ACCOUNT_CONSOLE, consoleSignIn } from '../console-sign-in/index.js';
import { accessTokenLiveness } from '../revocations/index.js';
import type { Deps } from '../wiring/deps.js';
import { accountTokenVerifier } from './account-token.js';
import { accountConsole } from './account.routes.js';
import { securityConsole, SECURITY_PATH } from './security.routes.js';

/**
 * The account console at ACCOUNT_CONSOLE.mount (and Keycloak's account REST API on the same path),
 * its security pages at SECURITY_PATH; both sign in through one ConsoleSignIn.
 */
export function mountAccountConsole(app: express.IRouter, deps: Pick<Deps, 'consoleRealm' | 'context' | 'clients' | 'protocol' | 'limiter' | 'events' | 'logger' | 'mfa'>): void {
  const { context, clients, protocol, limiter, events, logger } = deps;
  const signIn = consoleSignIn({ console: ACCOUNT_CONSOLE, ...deps.consoleRealm });
  app.use(SECURITY_PATH, securityConsole({ ...deps.mfa, signIn, users: context.users, limiter, events, logger }));
  app.use(
    ACCOUNT_CONSOLE.mount,
    accountConsole({
      signIn,
      account: context,
      clientName: async (clientId) => (await clients.find(clientId))?.name ?? clientId,
      api: {
        verify: accountTokenVerifier({
          provider: protocol.provider,
          envelopeKeys: protocol.envelopeKeys,
          isLive: (payload) => accessTokenLiveness(protocol.provider(), context.revocations)(payload),
        }),
        clients,
        isWebOrigin: (origin) => context.clients.isWebOrigin(origin),
      },
      limiter,
      events,
      logger,
    }),
  );
}

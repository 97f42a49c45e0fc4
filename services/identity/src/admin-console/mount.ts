import type express from 'express';
import { ADMIN_CONSOLE, consoleSignIn } from '../console-sign-in/index.js';
import { adminRolesOf } from '../roles/index.js';
import type { Deps } from '../wiring/deps.js';
import { adminConsole, adminConsoleRedirect } from './admin-console.js';

/** The admin console at ADMIN_CONSOLE.mount: its pages call the admin API (at INTERNAL_URL) with the signed-in administrator's token. */
export function mountAdminConsole(app: express.Express, deps: Pick<Deps, 'config' | 'consoleRealm' | 'context' | 'logger'>): void {
  app.get('/auth/admin', adminConsoleRedirect());
  app.use(
    ADMIN_CONSOLE.mount,
    adminConsole({
      signIn: consoleSignIn({ console: ADMIN_CONSOLE, ...deps.consoleRealm }),
      apiUrl: deps.config.internalUrl,
      rolesOf: (userId) => adminRolesOf(deps.context, userId),
      localeOf: async (userId) => (await deps.context.users.findById(userId))?.locale ?? undefined,
      logger: deps.logger,
    }),
  );
}

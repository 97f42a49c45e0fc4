import express from 'express';
import { ADMIN_CONSOLE } from '../console-sign-in/index.js';
import { lazyRoutes } from '../http/index.js';
import type { Deps } from '../wiring/deps.js';

/**
 * The admin console at ADMIN_CONSOLE.mount: its pages call the admin API (at INTERNAL_URL) with
 * the signed-in administrator's token. Its modules load at the first request under the mount
 * (http/lazy-routes.ts); Keycloak's `/auth/admin` answers with a redirect to it.
 */
export function mountAdminConsole(app: express.IRouter, deps: Pick<Deps, 'config' | 'consoleRealm' | 'context' | 'logger'>): void {
  app.get('/auth/admin', (_req, res) => {
    res.redirect(302, `${ADMIN_CONSOLE.mount}/`);
  });
  app.use(
    lazyRoutes([ADMIN_CONSOLE.mount], async () => {
      const [{ adminConsole }, { consoleSignIn }, { adminRolesOf }] = await Promise.all([
        import('./admin-console.js'),
        import('../console-sign-in/index.js'),
        import('../roles/index.js'),
      ]);
      const pages = adminConsole({
        signIn: consoleSignIn({ console: ADMIN_CONSOLE, ...deps.consoleRealm }),
        apiUrl: deps.config.internalUrl,
        rolesOf: (userId) => adminRolesOf(deps.context, userId),
        localeOf: async (userId) => (await deps.context.users.findById(userId))?.locale ?? undefined,
        logger: deps.logger,
      });
      return express.Router().use(ADMIN_CONSOLE.mount, pages);
    }),
  );
}

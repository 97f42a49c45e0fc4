import express, { type Response, type Router } from 'express';
import { fixedError, html, pageSecurity, type Logger } from '@hush/common';
import type { ConsoleSignIn } from '../console-sign-in/index.js';
import { consolePageErrors } from '../pages/index.js';
import { consoleRequest, CONSOLE_MOUNT, SECTIONS, type ConsoleContext, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';
import { clientPages } from './clients.pages.js';
import { eventPages } from './events.pages.js';
import { keyPages } from './keys.pages.js';
import { organizationPages } from './organizations.pages.js';
import { scopePages } from './scopes.pages.js';
import { userPages } from './users.pages.js';

export { CONSOLE_MOUNT };

export interface AdminConsoleDeps {
  signIn: ConsoleSignIn;
  /** Where the admin API is reached: identity's own origin from inside (config `internalUrl`). */
  apiUrl: string;
  rolesOf(userId: string): Promise<string[]>;
  logger: Logger;
}

/**
 * The admin console at /auth/admin/public/console (mount the router there): server-rendered pages
 * on the shared page layer, signed in through the console module (security-admin-console, code +
 * PKCE). Rules:
 * - only holders of a realm-management role get in; each sees the sections its roles may read,
 *   and the forms its roles may use (the admin API decides in the end, and its refusal is shown);
 * - every read and change is a call of the admin API with the administrator's own access token:
 *   the console has no other way to the data;
 * - lists page and search on the server; destructive actions go through a confirmation page;
 * - every form carries the session's CSRF token; no page needs JavaScript.
 */
export function adminConsole(deps: AdminConsoleDeps): Router {
  const ctx: ConsoleContext = { signIn: deps.signIn, apiUrl: deps.apiUrl, rolesOf: (userId) => deps.rolesOf(userId) };
  const { signIn } = deps;
  const router = express.Router();
  router.use(signIn.router);
  router.use(pageSecurity());

  const enter = async (res: Response): Promise<ConsoleRequest> => {
    const c = await consoleRequest(ctx, res);
    if (c.roles.size === 0) throw new NoAdminRoleError();
    return c;
  };
  const routes: ConsoleRoutes = {
    get(r, path, handler) {
      r.get(path, signIn.requireConsoleSession, async (req, res) => handler(await enter(res), req, res));
    },
    post(r, path, characters, handler) {
      r.post(path, signIn.requireConsoleSession, ...signIn.form(characters), async (req, res) => handler(await enter(res), req, res));
    },
  };

  routes.get(router, '/', async (c) => {
    const sections = SECTIONS.filter((s) => s.roles.some((r) => c.roles.has(r)));
    c.render(
      undefined,
      'Administration',
      html`<p>Manage the realm <code>public</code>. Your roles: ${[...c.roles].sort().join(', ')}.</p><ul>${sections.map((s) => html`<li><a href="${s.href}">${s.label}</a></li>`)}</ul>`,
    );
  });
  organizationPages(router, routes);
  userPages(router, routes);
  clientPages(router, routes);
  scopePages(router, routes);
  keyPages(router, routes);
  eventPages(router, routes);

  router.use(consolePageErrors(deps.logger, 'The admin console could not do this. Try again later.'));
  return router;
}

/** Signed in, but without any realm-management role: the console shows nothing. */
class NoAdminRoleError extends fixedError(403, 'forbidden', 'Your account holds no administrator role of this realm.') {}

/** Keycloak's `/auth/admin/` answers with its console. */
export function adminConsoleRedirect(): express.RequestHandler {
  return (_req, res) => {
    res.redirect(302, `${CONSOLE_MOUNT}/`);
  };
}

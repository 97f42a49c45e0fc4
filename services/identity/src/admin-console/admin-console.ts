import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import {
  CrossOriginFormError,
  CsrfRejectedError,
  DependencyUnavailableError,
  DomainError,
  html,
  pageSecurity,
  reportUnavailable,
  requestLogger,
  toDomainError,
  type Logger,
} from '@hush/common';
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
  /** The signed-in person's `locale` attribute, if they chose one. */
  localeOf(userId: string): Promise<string | undefined>;
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
 * - every form carries the session's CSRF token; no page needs JavaScript;
 * - every word comes from the catalogue (messages/), in the page's language; an error after
 *   sign-in is shown in the console's frame, in that language too.
 */
export function adminConsole(deps: AdminConsoleDeps): Router {
  const ctx: ConsoleContext = { signIn: deps.signIn, apiUrl: deps.apiUrl, rolesOf: (userId) => deps.rolesOf(userId), localeOf: (userId) => deps.localeOf(userId) };
  const { signIn } = deps;
  const router = express.Router();
  router.use(signIn.router);
  router.use(pageSecurity());

  // The console's view of the request, before any form is read: a refused form is shown in the console too.
  const enter: RequestHandler = async (req, res, next) => {
    const c = await consoleRequest(ctx, req, res);
    res.locals[CONSOLE_REQUEST] = c;
    if (c.roles.size === 0) throw new NoAdminRoleError(c.t('errors.noRole'));
    next();
  };
  const current = (res: Response) => res.locals[CONSOLE_REQUEST] as ConsoleRequest;
  const routes: ConsoleRoutes = {
    get(r, path, handler) {
      r.get(path, signIn.requireConsoleSession, enter, async (req, res) => handler(current(res), req, res));
    },
    post(r, path, characters, handler) {
      r.post(path, signIn.requireConsoleSession, enter, ...signIn.form(characters), async (req, res) => handler(current(res), req, res));
    },
  };

  routes.get(router, '/', async (c) => {
    const sections = SECTIONS.filter((s) => s.roles.some((r) => c.roles.has(r)));
    c.render(
      undefined,
      c.t('home.title'),
      html`<p>${c.h('home.intro', { roles: [...c.roles].sort().join(', ') })}</p><ul>${sections.map((s) => html`<li><a href="${s.href}">${c.t(`nav.${s.key}`)}</a></li>`)}</ul>`,
    );
  });
  organizationPages(router, routes);
  userPages(router, routes);
  clientPages(router, routes);
  scopePages(router, routes);
  keyPages(router, routes);
  eventPages(router, routes);

  router.use(inConsoleErrors(deps.logger));
  router.use(consolePageErrors(deps.logger, 'The admin console could not do this. Try again later.'));
  return router;
}

const CONSOLE_REQUEST = 'adminConsoleRequest';

/** Signed in, but without any realm-management role: the console shows nothing. */
class NoAdminRoleError extends DomainError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

/**
 * Errors once the console knows who is signed in: shown in the console's frame and language, with
 * the error's status. A refusal of the admin API or a form is worded where it was thrown; a refused
 * form (CSRF, another origin), an outage and a fault have fixed words; a fault's detail is only
 * logged. Before that (signing in), the pages' error handler answers.
 */
function inConsoleErrors(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req: Request, res: Response, next: (err: unknown) => void) => {
    const c = res.locals[CONSOLE_REQUEST] as ConsoleRequest | undefined;
    if (!c || res.headersSent) return next(err);
    const known = toDomainError(err);
    if (known) reportUnavailable(logger, known, res);
    let status = known?.status ?? 500;
    let message: string;
    if (known instanceof CsrfRejectedError || known instanceof CrossOriginFormError) message = c.t('errors.formExpired');
    else if (known instanceof DependencyUnavailableError) message = c.t('errors.unavailable');
    else if (known && status < 500) message = known.message;
    else {
      if (!known) requestLogger(logger, res).error({ err }, 'page failed');
      status = known?.status ?? 500;
      message = status === 503 ? c.t('errors.unavailable') : c.t('errors.fault');
    }
    for (const [name, value] of Object.entries(known?.headers ?? {})) res.setHeader(name, value);
    c.render(undefined, c.t('errors.title'), html`<p class="error" role="alert">${message}</p><p><a href="${CONSOLE_MOUNT}/">${c.t('errors.back')}</a></p>`, status);
  };
}

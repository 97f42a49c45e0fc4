import type { AdminRoute } from './admin-route.js';
import type { AdminDeps } from './admin-deps.js';
import { clientRoutes } from './clients.routes.js';
import { clientScopeRoutes } from './client-scopes.routes.js';
import { credentialRoutes } from './credentials.routes.js';
import { eventRoutes } from './events.routes.js';
import { handoverRoutes } from './handovers.routes.js';
import { executeActionsRoutes } from './execute-actions.routes.js';
import { keyRoutes } from './keys.routes.js';
import { organizationRoutes } from './organizations.routes.js';
import { roleRoutes } from './roles.routes.js';
import { userRoutes } from './users.routes.js';

export { ADMIN_MOUNT } from './admin-mount.js';

/**
 * Every route of the admin API, declared once (admin-route.ts says what each field means): the
 * Express router and the OpenAPI document (admin-openapi.ts) are derived from this table. Routes
 * are matched in this order (`/users/count` before `/users/:id`).
 */
export const ADMIN_ROUTES: readonly AdminRoute<unknown, unknown, unknown, AdminDeps>[] = [
  ...clientRoutes,
  ...roleRoutes,
  ...userRoutes,
  ...credentialRoutes,
  ...executeActionsRoutes,
  ...organizationRoutes,
  ...clientScopeRoutes,
  ...keyRoutes,
  ...eventRoutes,
  ...handoverRoutes,
];

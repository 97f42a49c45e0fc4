export { ADMIN_MOUNT } from './admin-mount.js';
export { adminOpenApiDocument } from './admin-openapi.js';
export { ADMIN_ROUTES } from './admin.routes.js';
export type { AdminDeps } from './admin-deps.js';
export { ADMIN_CLIENT_ID, ensureAdminClient } from './admin-client.js';
export type * from './admin-views.js';

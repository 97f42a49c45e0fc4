/** Keycloak's admin REST API for the realm (a module of its own: the app names it before the API loads). */
export const ADMIN_MOUNT = '/auth/admin/realms/public';

export { RolesRepository, type Role } from './roles.repository.js';
export {
  ADMIN_API_AUDIENCE,
  ADMIN_API_SCOPE,
  REALM,
  REALM_MANAGEMENT,
  REALM_MANAGEMENT_ROLES,
  adminRolesOf,
  createRealmRole,
  expandAdminRoles,
  resolveRoles,
  type AdminRole,
  type RolesDeps,
} from './roles.js';

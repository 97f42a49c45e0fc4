import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Role, RolesRepository } from './roles.repository.js';

/** Keycloak's realm roles live in the realm; its admin roles are the `realm-management` client's. */
export const REALM = 'realm';
export const REALM_MANAGEMENT = 'realm-management';

/**
 * The admin API as a resource server (registered by migration 20261210000000_admin_api): access
 * tokens for it, asked for with its scope (or, in the client-credentials grant, by a client whose
 * only API scope it is), carry the caller's realm-management roles under
 * `resource_access["realm-management"].roles`; tokens for other APIs never do.
 */
export const ADMIN_API_AUDIENCE = 'urn:hush:realm-management';
export const ADMIN_API_SCOPE = 'realm-management';

/** The realm-management roles Hush knows (seeded by migration 20261210000000_admin_api). */
export const REALM_MANAGEMENT_ROLES = [
  'realm-admin',
  'manage-clients',
  'view-clients',
  'query-clients',
  'manage-users',
  'view-users',
  'query-users',
  'query-groups',
  'manage-realm',
  'view-realm',
  'manage-events',
  'view-events',
] as const;
export type AdminRole = (typeof REALM_MANAGEMENT_ROLES)[number];

/**
 * Keycloak's composites: `realm-admin` holds every other role, `manage-*` and `view-*` the
 * `view-*`/`query-*` they imply. Tokens carry the expanded set, as Keycloak's do.
 */
const IMPLIES: Partial<Record<AdminRole, readonly AdminRole[]>> = {
  'realm-admin': REALM_MANAGEMENT_ROLES.filter((r) => r !== 'realm-admin'),
  'manage-clients': ['view-clients', 'query-clients'],
  'view-clients': ['query-clients'],
  'manage-users': ['view-users', 'query-users', 'query-groups'],
  'view-users': ['query-users', 'query-groups'],
  'manage-realm': ['view-realm'],
  'manage-events': ['view-events'],
};

export function expandAdminRoles(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    out.add(name);
    for (const implied of IMPLIES[name as AdminRole] ?? []) out.add(implied);
  }
  return [...out].sort();
}

export interface RolesDeps {
  roles: RolesRepository;
}

const ROLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$/;

export async function createRealmRole(deps: RolesDeps, input: { name: string; description?: string | null | undefined }): Promise<Role> {
  if (!ROLE_NAME.test(input.name)) throw new InvalidInputError('role name must be 1-100 letters, digits or . _ : @ -');
  return deps.roles.create(REALM, input.name, input.description ?? null);
}

/**
 * The roles of `container` a mapping request names, each as `{ id, name }`: both must name the
 * same role, as Keycloak checks (`Role not found` otherwise). A name alone is accepted too (the CLI).
 */
export async function resolveRoles(deps: RolesDeps, container: string, wanted: readonly { id?: string | undefined; name?: string | undefined }[]): Promise<Role[]> {
  const out: Role[] = [];
  for (const w of wanted) {
    const role = w.id !== undefined ? await deps.roles.findById(w.id) : w.name !== undefined ? await deps.roles.findByName(container, w.name) : undefined;
    if (!role || role.container !== container || (w.name !== undefined && w.name !== role.name)) throw new NotFoundError('Role');
    out.push(role);
  }
  return out;
}

/** The realm-management roles a user (or service-account user) holds, composites expanded. */
export async function adminRolesOf(deps: RolesDeps, userId: string): Promise<string[]> {
  return expandAdminRoles((await deps.roles.ofUser(userId, REALM_MANAGEMENT)).map((r) => r.name));
}

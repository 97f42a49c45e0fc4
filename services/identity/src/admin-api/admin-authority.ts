import { AdminForbiddenError } from '../errors.js';
import { expandAdminRoles, REALM_MANAGEMENT, type RolesRepository } from '../roles/index.js';
import type { AdminCaller } from './admin-caller.js';

/**
 * No takeover: the authority a caller needs over a principal (a user, a client, a client's
 * service-account user) to act on it.
 *
 * Rules:
 * - acting on a principal (changing, disabling or deleting it, changing its address, setting,
 *   resetting or handing over its password, removing its second factors, signing it out, sending
 *   it an action e-mail, mapping its roles, reading or regenerating a client's secret) needs every
 *   realm-management role the principal holds, composites expanded on both sides: no one acts on
 *   someone who holds more than they do, so no narrower administrator becomes a wider one;
 * - a client holds the roles of its service-account user;
 * - a principal holding no realm-management role is within the authority of every caller (the
 *   route's own role, `manage-users` or `manage-clients`, still decides);
 * - checked after reach (admin-caller.ts: what lies outside the caller's organization is "not
 *   found") and before anything is read back or written; refused with 403.
 * Keycloak's default is weaker: `manage-users` may reset the password of a `realm-admin` and sign
 * in as them (its issue #27669).
 */

type Deps = { roles: Pick<RolesRepository, 'namesOfUsers' | 'namesOfServiceAccounts'> };

/** Whether the caller holds every one of `held` (realm-management role names), composites expanded on both sides. */
export function holdsEveryRole(caller: AdminCaller, held: readonly string[]): boolean {
  const mine = new Set(expandAdminRoles([...caller.roles]));
  return expandAdminRoles(held).every((role) => mine.has(role));
}

/** The users (or service-account users), by id, the caller may act on (with `manage-users`). */
export async function manageableUsers(deps: Deps, caller: AdminCaller, userIds: readonly string[]): Promise<Set<string>> {
  if (!caller.roles.has('manage-users')) return new Set();
  const held = await deps.roles.namesOfUsers(userIds, REALM_MANAGEMENT);
  return new Set(userIds.filter((id) => holdsEveryRole(caller, held.get(id) ?? [])));
}

/** The clients, by client id, the caller may act on (with `manage-clients`). */
export async function manageableClients(deps: Deps, caller: AdminCaller, clientIds: readonly string[]): Promise<Set<string>> {
  if (!caller.roles.has('manage-clients')) return new Set();
  const held = await deps.roles.namesOfServiceAccounts(clientIds, REALM_MANAGEMENT);
  return new Set(clientIds.filter((id) => holdsEveryRole(caller, held.get(id) ?? [])));
}

export async function requireAuthorityOverUser(deps: Deps, caller: AdminCaller, userId: string): Promise<void> {
  const held = (await deps.roles.namesOfUsers([userId], REALM_MANAGEMENT)).get(userId) ?? [];
  if (!holdsEveryRole(caller, held)) throw new AdminForbiddenError();
}

export async function requireAuthorityOverClient(deps: Deps, caller: AdminCaller, clientId: string): Promise<void> {
  const held = (await deps.roles.namesOfServiceAccounts([clientId], REALM_MANAGEMENT)).get(clientId) ?? [];
  if (!holdsEveryRole(caller, held)) throw new AdminForbiddenError();
}

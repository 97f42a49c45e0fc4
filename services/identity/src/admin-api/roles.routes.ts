import { z } from 'zod';
import { AdminForbiddenError, NotFoundError } from '../errors.js';
import { createRealmRole, expandAdminRoles, REALM, REALM_MANAGEMENT, resolveRoles, type Role } from '../roles/index.js';
import { requireRealmWide, type AdminCaller } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, paging } from './admin-schemas.js';
import { reachableClient } from './clients.routes.js';
import { REALM_MANAGEMENT_CLIENT_ID } from './realm-management.js';
import { manageableUser, reachableUser } from './users.routes.js';

/**
 * Realm roles (`/roles`) and users' role mappings, realm roles and the `realm-management` client's
 * (`/users/{id}/role-mappings/clients/{client}`, where `{client}` is REALM_MANAGEMENT_CLIENT_ID or
 * the name `realm-management`). A caller grants or removes only realm-management roles it holds
 * itself, so no one raises anyone above themselves.
 */

export const roleRepresentation = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  composite: z.boolean(),
  clientRole: z.boolean(),
  containerId: z.string(),
});

export const toRoleRepresentation = (r: Role) => ({
  id: r.id,
  name: r.name,
  ...(r.description ? { description: r.description } : {}),
  composite: r.name === 'realm-admin' || r.name.startsWith('manage-') || (r.name.startsWith('view-') && r.container === REALM_MANAGEMENT),
  clientRole: r.container !== REALM,
  containerId: r.container === REALM ? 'public' : REALM_MANAGEMENT_CLIENT_ID,
});

const roleInput = z.object({ name: z.string().min(1), description: z.string().nullish() }).loose();
const mappingInput = z.array(z.object({ id: z.string().optional(), name: z.string().optional() }).loose());
const nameParams = z.object({ name: z.string().min(1) });
const clientMappingParams = z.object({
  id: z.string(),
  client: z.string().refine((c) => c === REALM_MANAGEMENT_CLIENT_ID || c === REALM_MANAGEMENT, 'Could not find client'),
});

function mayGrant(caller: AdminCaller, roles: readonly Role[]): void {
  if (roles.some((r) => !caller.roles.has(r.name))) throw new AdminForbiddenError();
}

const READ_ROLES = ['view-realm', 'view-users', 'view-clients'] as const;

export const roleRoutes = [
  defineAdminRoute({
    operationId: 'listRealmRoles',
    summary: 'Realm roles.',
    method: 'get',
    path: '/roles',
    roles: READ_ROLES,
    query: z.object({ search: z.string().optional(), ...paging(undefined) }),
    ok: { status: 200, schema: z.array(roleRepresentation), description: 'Roles, by name' },
    handle: async (deps: AdminDeps, { query }) => (await deps.roles.list(REALM, query)).map(toRoleRepresentation),
  }),
  defineAdminRoute({
    operationId: 'createRealmRole',
    summary: 'Creates a realm role; Location ends in its name, as Keycloak’s.',
    method: 'post',
    path: '/roles',
    roles: ['manage-realm'],
    body: roleInput,
    ok: { status: 201, description: 'Created' },
    errors: { '400': 'Bad name', '409': 'The name is taken' },
    async handle(deps: AdminDeps, { body, caller }) {
      requireRealmWide(caller);
      return (await createRealmRole(deps, body)).name;
    },
  }),
  defineAdminRoute({
    operationId: 'getRealmRole',
    summary: 'One realm role, by name.',
    method: 'get',
    path: '/roles/:name',
    roles: READ_ROLES,
    params: nameParams,
    ok: { status: 200, schema: roleRepresentation, description: 'The role' },
    errors: { '404': 'No such role' },
    async handle(deps: AdminDeps, { params }) {
      const role = await deps.roles.findByName(REALM, params.name);
      if (!role) throw new NotFoundError('Role');
      return toRoleRepresentation(role);
    },
  }),
  defineAdminRoute({
    operationId: 'deleteRealmRole',
    summary: 'Deletes a realm role and its mappings.',
    method: 'delete',
    path: '/roles/:name',
    roles: ['manage-realm'],
    params: nameParams,
    ok: { status: 204, description: 'Deleted' },
    errors: { '404': 'No such role' },
    async handle(deps: AdminDeps, { params, caller }) {
      requireRealmWide(caller);
      const role = await deps.roles.findByName(REALM, params.name);
      if (!role) throw new NotFoundError('Role');
      await deps.roles.delete(role.id);
    },
  }),
  defineAdminRoute({
    operationId: 'getRoleById',
    summary: 'One role, by id.',
    method: 'get',
    path: '/roles-by-id/:id',
    roles: READ_ROLES,
    params: idParams,
    ok: { status: 200, schema: roleRepresentation, description: 'The role' },
    errors: { '404': 'No such role' },
    async handle(deps: AdminDeps, { params }) {
      const role = await deps.roles.findById(params.id);
      if (!role) throw new NotFoundError('Role');
      return toRoleRepresentation(role);
    },
  }),
  defineAdminRoute({
    operationId: 'listRealmManagementRoles',
    summary: 'A client’s roles: the realm-management client’s are the admin API’s rights; other clients have none.',
    method: 'get',
    path: '/clients/:id/roles',
    roles: READ_ROLES,
    params: idParams,
    ok: { status: 200, schema: z.array(roleRepresentation), description: 'Roles' },
    errors: { '404': 'No such client' },
    async handle(deps: AdminDeps, { params, caller }) {
      if (params.id === REALM_MANAGEMENT_CLIENT_ID) return (await deps.roles.list(REALM_MANAGEMENT)).map(toRoleRepresentation);
      await reachableClient(deps, caller, params.id);
      return [];
    },
  }),
  defineAdminRoute({
    operationId: 'userRoleMappings',
    summary: 'A user’s role mappings: realm roles and realm-management roles.',
    method: 'get',
    path: '/users/:id/role-mappings',
    roles: ['view-users'],
    params: idParams,
    ok: {
      status: 200,
      schema: z.object({
        realmMappings: z.array(roleRepresentation).optional(),
        clientMappings: z.record(z.string(), z.object({ id: z.string(), client: z.string(), mappings: z.array(roleRepresentation) })).optional(),
      }),
      description: 'Mappings',
    },
    async handle(deps: AdminDeps, { params, caller }) {
      const user = await reachableUser(deps, caller, params.id);
      const realm = await deps.roles.ofUser(user.id, REALM);
      const admin = await deps.roles.ofUser(user.id, REALM_MANAGEMENT);
      return {
        ...(realm.length ? { realmMappings: realm.map(toRoleRepresentation) } : {}),
        ...(admin.length
          ? { clientMappings: { [REALM_MANAGEMENT]: { id: REALM_MANAGEMENT_CLIENT_ID, client: REALM_MANAGEMENT, mappings: admin.map(toRoleRepresentation) } } }
          : {}),
      };
    },
  }),
  ...(['realm', 'client'] as const).flatMap((kind) => {
    const path = kind === 'realm' ? '/users/:id/role-mappings/realm' : '/users/:id/role-mappings/clients/:client';
    const params = kind === 'realm' ? idParams : clientMappingParams;
    const container = kind === 'realm' ? REALM : REALM_MANAGEMENT;
    const suffix = kind === 'realm' ? 'RealmRoleMappings' : 'ClientRoleMappings';
    return [
      defineAdminRoute({
        operationId: `list${suffix}`,
        summary: `The user’s ${kind === 'realm' ? 'realm' : 'realm-management'} roles.`,
        method: 'get',
        path,
        roles: ['view-users'],
        params,
        ok: { status: 200, schema: z.array(roleRepresentation), description: 'Roles' },
        async handle(deps: AdminDeps, { params: p, caller }) {
          const user = await reachableUser(deps, caller, p.id);
          return (await deps.roles.ofUser(user.id, container)).map(toRoleRepresentation);
        },
      }),
      defineAdminRoute({
        operationId: `listComposite${suffix}`,
        summary: `The user’s effective ${kind === 'realm' ? 'realm' : 'realm-management'} roles (composites expanded).`,
        method: 'get',
        path: `${path}/composite`,
        roles: ['view-users'],
        params,
        ok: { status: 200, schema: z.array(roleRepresentation), description: 'Roles' },
        async handle(deps: AdminDeps, { params: p, caller }) {
          const user = await reachableUser(deps, caller, p.id);
          const direct = (await deps.roles.ofUser(user.id, container)).map((r) => r.name);
          const names = new Set(container === REALM ? direct : expandAdminRoles(direct));
          return (await deps.roles.list(container)).filter((r) => names.has(r.name)).map(toRoleRepresentation);
        },
      }),
      defineAdminRoute({
        operationId: `add${suffix}`,
        summary: 'Maps roles to the user; each `{ id, name }` must name one role (404 "Role not found" otherwise).',
        method: 'post',
        path,
        roles: ['manage-users'],
        params,
        body: mappingInput,
        ok: { status: 204, description: 'Mapped' },
        errors: { '404': 'No such user or role' },
        async handle(deps: AdminDeps, { params: p, body, caller }) {
          const user = await manageableUser(deps, caller, p.id);
          const roles = await resolveRoles(deps, container, body);
          if (container === REALM_MANAGEMENT) mayGrant(caller, roles);
          await deps.roles.addMappings(
            user.id,
            roles.map((r) => r.id),
          );
        },
      }),
      defineAdminRoute({
        operationId: `remove${suffix}`,
        summary: 'Removes role mappings of the user.',
        method: 'delete',
        path,
        roles: ['manage-users'],
        params,
        body: mappingInput,
        ok: { status: 204, description: 'Removed' },
        errors: { '404': 'No such user or role' },
        async handle(deps: AdminDeps, { params: p, body, caller }) {
          const user = await manageableUser(deps, caller, p.id);
          const roles = await resolveRoles(deps, container, body);
          if (container === REALM_MANAGEMENT) mayGrant(caller, roles);
          await deps.roles.removeMappings(
            user.id,
            roles.map((r) => r.id),
          );
        },
      }),
    ];
  }),
];

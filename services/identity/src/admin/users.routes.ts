import { z } from 'zod';
import { createUser, deleteUser, resetUserPassword, updateUser } from '../accounts/users.js';
import type { User } from '../accounts/users.repository.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { endAccountSessions } from '../sessions/index.js';
import { withinReach, type AdminCaller } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, paging, queryFlag, USERS_PAGE } from './admin-schemas.js';
import { credentialInput, toUserRepresentation, userRepresentation, userRepresentationInput, userSessionRepresentation } from './users.representation.js';

/** Users (Keycloak's `/users`). Service-account users are reached through their client, never listed. */

const VIEW = ['view-users', 'query-users'] as const;
const MANAGE = ['manage-users'] as const;
const NOT_FOUND = { '404': 'No such user (or outside the caller’s organization)' };

export async function reachableUser(deps: Pick<AdminDeps, 'users'>, caller: AdminCaller, id: string): Promise<User> {
  const user = await deps.users.findById(id);
  if (!user || !withinReach(caller, user.organizationId)) throw new NotFoundError('User');
  return user;
}

const filters = {
  username: z.string().optional(),
  email: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  search: z.string().optional(),
  exact: queryFlag.optional(),
  enabled: queryFlag.optional(),
  briefRepresentation: queryFlag.optional(),
};

export const userRoutes = [
  defineAdminRoute({
    operationId: 'listUsers',
    summary: `Users; \`username\`, \`email\`, \`firstName\`, \`lastName\` match as substrings (exactly with \`exact=true\`), \`search\` any of them. ${USERS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/users',
    roles: VIEW,
    query: z.object({ ...filters, ...paging(USERS_PAGE) }),
    ok: { status: 200, schema: z.array(userRepresentation), description: 'The users, by username' },
    async handle(deps: AdminDeps, { query, caller }) {
      return (await deps.users.search({ ...query, organizationId: caller.organizationId })).map(toUserRepresentation);
    },
  }),
  defineAdminRoute({
    operationId: 'countUsers',
    summary: 'How many users match (the filters of the list).',
    method: 'get',
    path: '/users/count',
    roles: VIEW,
    query: z.object(filters),
    ok: { status: 200, schema: z.number().int(), description: 'The count' },
    handle: (deps: AdminDeps, { query, caller }) => deps.users.count({ ...query, organizationId: caller.organizationId }),
  }),
  defineAdminRoute({
    operationId: 'createUser',
    summary: 'Creates a user, with a password from `credentials` (without one the user cannot sign in until reset-password).',
    method: 'post',
    path: '/users',
    roles: MANAGE,
    body: userRepresentationInput,
    ok: { status: 201, description: 'Created; Location ends in the new id' },
    errors: { '400': 'Bad representation or password', '409': 'The username is taken' },
    async handle(deps: AdminDeps, { body, caller }) {
      if (!body.username) throw new InvalidInputError('username is required');
      const { user } = await createUser(deps, {
        username: body.username,
        password: body.credentials?.[0]?.value,
        email: body.email ?? undefined,
        firstName: body.firstName ?? undefined,
        lastName: body.lastName ?? undefined,
        emailVerified: body.emailVerified,
        enabled: body.enabled,
        organization: caller.organizationId,
      });
      return user.id;
    },
  }),
  defineAdminRoute({
    operationId: 'getUser',
    summary: 'One user.',
    method: 'get',
    path: '/users/:id',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: userRepresentation, description: 'The user' },
    errors: NOT_FOUND,
    handle: async (deps: AdminDeps, { params, caller }) => toUserRepresentation(await reachableUser(deps, caller, params.id)),
  }),
  defineAdminRoute({
    operationId: 'updateUser',
    summary: 'Updates a user: fields left out keep their value. `enabled: false` ends its sessions and refresh tokens at once.',
    method: 'put',
    path: '/users/:id',
    roles: MANAGE,
    params: idParams,
    body: userRepresentationInput,
    ok: { status: 204, description: 'Updated' },
    errors: { ...NOT_FOUND, '400': 'Bad representation', '409': 'The username is taken' },
    async handle(deps: AdminDeps, { params, body, caller }) {
      const user = await reachableUser(deps, caller, params.id);
      await updateUser(deps, user.id, {
        username: body.username,
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        emailVerified: body.emailVerified,
        enabled: body.enabled,
      });
      const password = body.credentials?.[0]?.value;
      if (password !== undefined) {
        await resetUserPassword(deps, user.id, password);
        deps.events.user({ type: 'UPDATE_PASSWORD', userId: user.id, clientId: caller.clientId, ipAddress: caller.ipAddress });
      }
    },
  }),
  defineAdminRoute({
    operationId: 'deleteUser',
    summary: 'Deletes a user; its sessions and tokens end at once.',
    method: 'delete',
    path: '/users/:id',
    roles: MANAGE,
    params: idParams,
    ok: { status: 204, description: 'Deleted' },
    errors: NOT_FOUND,
    async handle(deps: AdminDeps, { params, caller }) {
      await deleteUser(deps, (await reachableUser(deps, caller, params.id)).id);
    },
  }),
  defineAdminRoute({
    operationId: 'resetPassword',
    summary: 'Sets the user’s password (`temporary` must be false: Hush has no required actions).',
    method: 'put',
    path: '/users/:id/reset-password',
    roles: MANAGE,
    params: idParams,
    body: credentialInput,
    ok: { status: 204, description: 'Set' },
    errors: { ...NOT_FOUND, '400': 'Bad password' },
    async handle(deps: AdminDeps, { params, body, caller }) {
      const user = await reachableUser(deps, caller, params.id);
      await resetUserPassword(deps, user.id, body.value);
      deps.events.user({ type: 'UPDATE_PASSWORD', userId: user.id, clientId: caller.clientId, ipAddress: caller.ipAddress });
    },
  }),
  defineAdminRoute({
    operationId: 'userSessions',
    summary: 'The user’s sign-in sessions.',
    method: 'get',
    path: '/users/:id/sessions',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: z.array(userSessionRepresentation), description: 'Sessions' },
    errors: NOT_FOUND,
    async handle(deps: AdminDeps, { params, caller }) {
      const user = await reachableUser(deps, caller, params.id);
      return (await deps.sessions.listSessions(user.id)).map((s) => ({
        id: s.id,
        username: user.username,
        userId: user.id,
        ipAddress: '',
        start: s.start,
        lastAccess: s.lastAccess,
        rememberMe: false,
        clients: Object.fromEntries(s.clients.map((c) => [c, c])),
      }));
    },
  }),
  defineAdminRoute({
    operationId: 'logoutUser',
    summary: 'Ends every session, grant and refresh token of the user; its access tokens are announced revoked.',
    method: 'post',
    path: '/users/:id/logout',
    roles: MANAGE,
    params: idParams,
    ok: { status: 204, description: 'Signed out' },
    errors: NOT_FOUND,
    async handle(deps: AdminDeps, { params, caller }) {
      await endAccountSessions(deps, (await reachableUser(deps, caller, params.id)).id);
    },
  }),
];

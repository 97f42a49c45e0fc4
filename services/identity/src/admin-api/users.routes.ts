import type { Request } from 'express';
import { randomToken } from '@hush/common';
import { chooseMailLocale } from '@hush/common/i18n';
import { z } from 'zod';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { announceHandover, handoverQuery } from './handovers.routes.js';
import { endAccountSessions } from '../sessions/index.js';
import { manageableUsers, requireAuthorityOverUser } from './admin-authority.js';
import { handedOverBy, withinReach, type AdminCaller } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, paging, queryFlag, sorting, USERS_PAGE } from './admin-schemas.js';
import { credentialInput, localeAttribute, toUserRepresentation, userRepresentation, userRepresentationInput, userSessionRepresentation } from './users.representation.js';
import { createUser, deleteUser, resetUserPassword, updateUser, USER_SORTS, type User, type UserSort } from '../users/index.js';
import { handOver } from '../handover/index.js';
import { adminMailHints } from './admin-mail-locale.js';

/** Users (Keycloak's `/users`). Service-account users are reached through their client, never listed. */

const VIEW = ['view-users', 'query-users'] as const;
const MANAGE = ['manage-users'] as const;
const NOT_FOUND = { '404': 'No such user (or outside the caller’s organization)' };

export async function reachableUser(deps: Pick<AdminDeps, 'users'>, caller: AdminCaller, id: string): Promise<User> {
  const user = await deps.users.findById(id);
  if (!user || !withinReach(caller, user.organizationId)) throw new NotFoundError('User');
  return user;
}

/** A user the caller may act on: within its reach (404 otherwise) and its authority (403 otherwise, admin-authority.ts). */
export async function manageableUser(deps: Pick<AdminDeps, 'users' | 'roles'>, caller: AdminCaller, id: string): Promise<User> {
  const user = await reachableUser(deps, caller, id);
  await requireAuthorityOverUser(deps, caller, user.id);
  return user;
}

/** Users as the caller sees them: `access.manage` where it may act on them; `totp` and the credential types each holds. */
export async function representUsers(deps: Pick<AdminDeps, 'roles' | 'credentials'>, caller: AdminCaller, users: readonly User[]) {
  const ids = users.map((u) => u.id);
  const [manageable, credentials] = await Promise.all([manageableUsers(deps, caller, ids), deps.credentials.typesOfUsers(ids)]);
  return users.map((u) => toUserRepresentation(u, { manage: manageable.has(u.id), credentialTypes: credentials.get(u.id) ?? [] }));
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

/** A password an administrator never sees: 18 random bytes, as the CLI's generated ones. */
const generatedPassword = () => randomToken(18);

/**
 * A password's handover: the first one of a new account, or a new one of an existing account; its
 * e-mail in the language the call names, else the account's `locale` attribute, else the call's
 * Accept-Language (admin-mail-locale.ts).
 */
const passwordHandover = async (
  deps: Pick<AdminDeps, 'users'>,
  recipient: string,
  caller: AdminCaller,
  account: { username: string; first: boolean; organizationId?: string | null; locale?: string | null | undefined },
  req: Request,
) => ({
  kind: 'password' as const,
  recipient,
  organizationId: account.organizationId !== undefined ? account.organizationId : (caller.organizationId ?? null),
  createdBy: caller.userId ?? caller.subject,
  label: { kind: account.first ? ('first_password' as const) : ('password' as const), name: account.username, by: await handedOverBy(deps, caller) },
  locale: chooseMailLocale({ ...adminMailHints(req), accountLocale: account.locale }),
});

export const userRoutes = [
  defineAdminRoute({
    operationId: 'listUsers',
    summary: `Users; \`username\`, \`email\`, \`firstName\`, \`lastName\` match as substrings (exactly with \`exact=true\`), \`search\` any of them. By username unless \`sort\` (then by username among equals), ascending unless \`direction=desc\`. ${USERS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/users',
    roles: VIEW,
    query: z.object({ ...filters, ...sorting<UserSort>(['username', ...(Object.keys(USER_SORTS) as (keyof typeof USER_SORTS)[])]), ...paging(USERS_PAGE) }),
    ok: { status: 200, schema: z.array(userRepresentation), description: 'The users, by username unless sorted otherwise' },
    async handle(deps: AdminDeps, { query, caller }) {
      return representUsers(deps, caller, await deps.users.search({ ...query, organizationId: caller.organizationId }));
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
    summary:
      'Creates a user, with a password from `credentials` (without one the user cannot sign in until reset-password). With `handoverTo`, identity generates the first password and sends it to that address as a one-time secret; the `Hush-Handover` header names the receipt.',
    method: 'post',
    path: '/users',
    roles: MANAGE,
    query: handoverQuery,
    body: userRepresentationInput,
    ok: { status: 201, description: 'Created; Location ends in the new id' },
    errors: {
      '400': 'Bad representation or password, or a password with `handoverTo`',
      '409': 'The username is taken',
      '503': 'The secrets service cannot be reached (nothing was created)',
    },
    async handle(deps: AdminDeps, { query, body, caller }, req, res) {
      if (!body.username) throw new InvalidInputError('username is required');
      const given = body.credentials?.[0];
      if (given && given.value === undefined && query.handoverTo === undefined) throw new InvalidInputError('credentials[0].value is required');
      if (given?.value !== undefined && query.handoverTo !== undefined) throw new InvalidInputError('with handoverTo the password is generated: leave its value out');
      const newUser = (password: string | undefined) =>
        createUser(deps, {
          username: body.username!,
          password,
          email: body.email ?? undefined,
          firstName: body.firstName ?? undefined,
          lastName: body.lastName ?? undefined,
          emailVerified: body.emailVerified,
          enabled: body.enabled,
          organization: caller.organizationId,
          locale: localeAttribute(body.attributes),
        });
      if (query.handoverTo === undefined) return (await newUser(given?.value)).user.id;
      const password = generatedPassword();
      const { applied, handover } = await handOver(
        deps,
        await passwordHandover(deps, query.handoverTo, caller, { username: body.username, first: true, locale: localeAttribute(body.attributes) }, req),
        password,
        () => newUser(password),
        (made) => made.user.id,
      );
      announceHandover(res, handover);
      deps.events.user({ type: 'UPDATE_PASSWORD', userId: applied.user.id, clientId: caller.clientId, ipAddress: caller.ipAddress, details: { handover: handover.id } });
      return applied.user.id;
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
    handle: async (deps: AdminDeps, { params, caller }) => (await representUsers(deps, caller, [await reachableUser(deps, caller, params.id)]))[0],
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
      const user = await manageableUser(deps, caller, params.id);
      await updateUser(deps, user.id, {
        username: body.username,
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        emailVerified: body.emailVerified,
        enabled: body.enabled,
        locale: localeAttribute(body.attributes),
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
      await deleteUser(deps, (await manageableUser(deps, caller, params.id)).id);
    },
  }),
  defineAdminRoute({
    operationId: 'resetPassword',
    summary:
      'Sets the user’s password (`temporary` must be false: Hush has no required actions). With `handoverTo` and no `value`, identity generates the password and sends it to that address as a one-time secret; the `Hush-Handover` header names the receipt.',
    method: 'put',
    path: '/users/:id/reset-password',
    roles: MANAGE,
    params: idParams,
    query: handoverQuery,
    body: credentialInput,
    ok: { status: 204, description: 'Set' },
    errors: { ...NOT_FOUND, '400': 'Bad password, or a `value` with `handoverTo`', '503': 'The secrets service cannot be reached (the password stays as it was)' },
    async handle(deps: AdminDeps, { params, query, body, caller }, req, res) {
      const user = await manageableUser(deps, caller, params.id);
      if (query.handoverTo === undefined) {
        if (body.value === undefined) throw new InvalidInputError('value is required');
        await resetUserPassword(deps, user.id, body.value);
        deps.events.user({ type: 'UPDATE_PASSWORD', userId: user.id, clientId: caller.clientId, ipAddress: caller.ipAddress });
        return;
      }
      if (body.value !== undefined) throw new InvalidInputError('with handoverTo the password is generated: leave `value` out');
      const password = generatedPassword();
      const { handover } = await handOver(
        deps,
        await passwordHandover(deps, query.handoverTo, caller, { username: user.username, first: false, organizationId: user.organizationId, locale: user.locale }, req),
        password,
        () => resetUserPassword(deps, user.id, password),
        () => user.id,
      );
      announceHandover(res, handover);
      deps.events.user({ type: 'UPDATE_PASSWORD', userId: user.id, clientId: caller.clientId, ipAddress: caller.ipAddress, details: { handover: handover.id } });
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
      await endAccountSessions(deps, (await manageableUser(deps, caller, params.id)).id);
    },
  }),
];

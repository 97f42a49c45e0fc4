import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { removeCredential } from '../login/index.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams } from './admin-schemas.js';
import { manageableUser, reachableUser } from './users.routes.js';

/**
 * A user's credentials (Keycloak's `/users/{id}/credentials`): the password (`password`, listed,
 * never removed here: reset-password replaces it), the TOTP second factor (`otp`) and passkeys
 * (`webauthn-passwordless`). Removing the TOTP credential also drops its recovery codes: an
 * administrator's reset of a person's second factor. No secret, key or code is ever listed.
 */

export const credentialRepresentation = z.object({
  id: z.string(),
  type: z.enum(['password', 'otp', 'webauthn-passwordless']),
  userLabel: z.string().optional(),
  createdDate: z.number().int(),
  credentialData: z.string(),
  priority: z.number().int(),
});

const credentialParams = z.object({ id: z.string().min(1), credentialId: z.string().min(1) });
const PRIORITY = { password: 10, otp: 20, 'webauthn-passwordless': 30 } as const;

export const credentialRoutes = [
  defineAdminRoute({
    operationId: 'listUserCredentials',
    summary: 'The user’s credentials: password, TOTP (`otp`) and passkeys (`webauthn-passwordless`), without any secret.',
    method: 'get',
    path: '/users/:id/credentials',
    roles: ['view-users', 'manage-users'],
    params: idParams,
    ok: { status: 200, schema: z.array(credentialRepresentation), description: 'Credentials, password first' },
    errors: { '404': 'No such user (or outside the caller’s organization)' },
    async handle(deps: AdminDeps, { params, caller }) {
      const user = await reachableUser(deps, caller, params.id);
      // The password is the user's own row; its id is the user's (it cannot be removed, only reset).
      const password = { id: user.id, type: 'password' as const, createdDate: user.createdAt.getTime(), credentialData: '{}', priority: PRIORITY.password };
      const others = (await deps.credentials.list(user.id)).map((c) => ({
        id: c.id,
        type: c.type,
        ...(c.userLabel ? { userLabel: c.userLabel } : {}),
        createdDate: c.createdAt.getTime(),
        credentialData: '{}',
        priority: PRIORITY[c.type],
      }));
      return user.passwordHash.startsWith('$') ? [password, ...others] : others;
    },
  }),
  defineAdminRoute({
    operationId: 'deleteUserCredential',
    summary: 'Removes a TOTP credential (with its recovery codes) or a passkey: the reset of a person’s second factor. The password cannot be removed (400).',
    method: 'delete',
    path: '/users/:id/credentials/:credentialId',
    roles: ['manage-users'],
    params: credentialParams,
    ok: { status: 204, description: 'Removed' },
    errors: { '400': 'The password credential', '404': 'No such user or credential' },
    async handle(deps: AdminDeps, { params, caller }) {
      const user = await manageableUser(deps, caller, params.id);
      if (params.credentialId === user.id) throw new InvalidInputError('the password cannot be removed; reset it instead');
      const removed = await removeCredential(deps, user.id, params.credentialId);
      deps.events.user({
        type: removed.type === 'otp' ? 'REMOVE_TOTP' : 'REMOVE_CREDENTIAL',
        userId: user.id,
        clientId: caller.clientId,
        ipAddress: caller.ipAddress,
        details: { credential_type: removed.type, credential_id: removed.id },
      });
    },
  }),
];

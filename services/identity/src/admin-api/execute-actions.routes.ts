import { z } from 'zod';
import { ACCOUNT_ACTIONS } from '@hush/queue';
import { issueActionLink } from '../account-links/index.js';
import { InvalidInputError } from '../errors.js';
import { adminMailHints } from './admin-mail-locale.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams } from './admin-schemas.js';
import { manageableUser } from './users.routes.js';

/**
 * Keycloak's `execute-actions-email`: one e-mail to the user's address whose link performs the
 * actions (a new password, the address confirmed, then the second factor set up in the account
 * console). `redirect_uri` (with its `client_id`, a registered redirect URI of that client) is
 * where the page sends the person once done. The admin event records the call (its body: the
 * action names); the link itself appears nowhere but in the e-mail, written in the language the
 * call names (`ui_locales`, `kc_locale`), else the user's `locale` attribute, else the call's
 * `Accept-Language`.
 */
export const executeActionsRoutes = [
  defineAdminRoute({
    operationId: 'executeActionsEmail',
    summary: 'Sends the user an e-mail with a link to perform the actions (`UPDATE_PASSWORD`, `CONFIGURE_TOTP`, `VERIFY_EMAIL`); `lifespan` in seconds.',
    method: 'put',
    path: '/users/:id/execute-actions-email',
    roles: ['manage-users'],
    params: idParams,
    query: z.object({
      lifespan: z.coerce
        .number()
        .int()
        .min(60)
        .max(30 * 24 * 3600)
        .optional(),
      client_id: z.string().min(1).max(255).optional(),
      redirect_uri: z.string().min(1).max(2000).optional(),
    }),
    body: z.array(z.enum(ACCOUNT_ACTIONS)).min(1).max(ACCOUNT_ACTIONS.length),
    ok: { status: 204, description: 'The e-mail is on its way' },
    errors: {
      '404': 'No such user (or outside the caller’s organization)',
      '400': 'Unknown action, the user has no e-mail address or is disabled, or the redirect URI is not the client’s',
    },
    async handle(deps: AdminDeps, { params, query, body, caller }, req) {
      const user = await manageableUser(deps, caller, params.id);
      if (!user.email) throw new InvalidInputError('User email missing');
      if (!user.enabled) throw new InvalidInputError('User is disabled');
      if (query.redirect_uri !== undefined) {
        if (!query.client_id) throw new InvalidInputError('Client id missing');
        const client = await deps.clients.find(query.client_id);
        if (!client?.enabled) throw new InvalidInputError('Client doesn’t exist');
        if (!client.redirectUris.includes(query.redirect_uri)) throw new InvalidInputError('Invalid redirect uri.');
      }
      const actions = [...new Set(body)];
      await issueActionLink(deps.accountActions, { ...user, email: user.email }, 'execute-actions', {
        actions,
        lifespanSeconds: query.lifespan ?? deps.accountActions.defaultLifespanSeconds,
        clientId: query.client_id,
        redirectUri: query.redirect_uri,
        hints: adminMailHints(req),
      });
      deps.events.user({
        type: 'EXECUTE_ACTIONS',
        userId: user.id,
        clientId: caller.clientId,
        ipAddress: caller.ipAddress,
        details: { username: user.username, actions: actions.join(',') },
      });
    },
  }),
];

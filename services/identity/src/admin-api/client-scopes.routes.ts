import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { requireRealmWide } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { createApi } from '../apis/index.js';
import { OIDC_SCOPES } from '../oidc/scopes.js';

/**
 * Client scopes as Keycloak shows them: the OpenID scopes, and each scope of each of Hush's APIs
 * (resource servers), whose attributes name the API (`hush.api.identifier`). Creating a client
 * scope with `hush.api.identifier` registers that API with the scope (an API has at least one),
 * so an integrator can add an API and its scopes without the CLI; scopes of an existing API are
 * fixed (409).
 */
export const clientScopeRepresentation = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  protocol: z.literal('openid-connect'),
  attributes: z.record(z.string(), z.string()),
});

const clientScopeInput = z
  .object({
    name: z.string().min(1),
    description: z.string().nullish(),
    protocol: z.string().optional(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  })
  .loose();

export const clientScopeRoutes = [
  defineAdminRoute({
    operationId: 'listClientScopes',
    summary: 'The OpenID scopes and every API scope.',
    method: 'get',
    path: '/client-scopes',
    roles: ['view-clients', 'view-realm'],
    ok: { status: 200, schema: z.array(clientScopeRepresentation), description: 'Client scopes' },
    async handle(deps: AdminDeps) {
      const oidc = OIDC_SCOPES.map((name) => ({ id: name, name, protocol: 'openid-connect' as const, attributes: { 'include.in.token.scope': 'true' } }));
      const apis = (await deps.apis.list()).flatMap((api) =>
        api.scopes.map((name) => ({
          id: name,
          name,
          description: `${api.name} (${api.identifier})`,
          protocol: 'openid-connect' as const,
          attributes: { 'include.in.token.scope': 'true', 'hush.api.identifier': api.identifier, 'hush.api.access_token_ttl': String(api.accessTokenTtl) },
        })),
      );
      return [...oidc, ...apis];
    },
  }),
  defineAdminRoute({
    operationId: 'createClientScope',
    summary: 'Registers an API (attribute `hush.api.identifier`, optional `hush.api.access_token_ttl`) with this scope; Location ends in the scope name.',
    method: 'post',
    path: '/client-scopes',
    roles: ['manage-realm', 'manage-clients'],
    body: clientScopeInput,
    ok: { status: 201, description: 'Created' },
    errors: { '400': 'Bad name or identifier', '409': 'The API exists (its scopes are fixed)' },
    async handle(deps: AdminDeps, { body, caller }) {
      requireRealmWide(caller);
      const identifier = body.attributes?.['hush.api.identifier'];
      if (!identifier) throw new InvalidInputError('attributes["hush.api.identifier"] must name the API (an absolute URI) the scope belongs to');
      const ttl = body.attributes?.['hush.api.access_token_ttl'];
      await createApi(deps, { identifier, name: body.description ?? identifier, scopes: [body.name], accessTokenTtl: ttl === undefined ? undefined : Number(ttl) });
      return body.name;
    },
  }),
];

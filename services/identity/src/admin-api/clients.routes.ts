import { z } from 'zod';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { announceHandover, handoverQuery, handoverReceipt } from './handovers.routes.js';
import { manageableClients, requireAuthorityOverClient } from './admin-authority.js';
import { handedOverBy, withinReach, type AdminCaller } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, paging, queryFlag, sorting } from './admin-schemas.js';
import { clientRepresentation, clientRepresentationInput, toClientInput, toClientRepresentation, type ClientRepresentation } from './clients.representation.js';
import { REALM_MANAGEMENT } from '../roles/index.js';
import { REALM_MANAGEMENT_CLIENT_ID } from './realm-management.js';
import { userRepresentation } from './users.representation.js';
import { representUsers } from './users.routes.js';
import { serviceAccountUser } from '../users/index.js';
import { type Client, CLIENT_SORTS, type ClientSort, createClient, deleteClient, newClientSecret, readClientSecret, rotateClientSecret, updateClient } from '../clients/index.js';
import { handOver } from '../handover/index.js';
import { handoverLocale } from './admin-mail-locale.js';

/** Clients (Keycloak's `/clients`). `:id` is the client's internal id, as Keycloak's. */

const VIEW = ['view-clients', 'query-clients'] as const;
const MANAGE = ['manage-clients'] as const;
const NOT_FOUND = { '404': 'No such client (or outside the caller’s organization)' };

/** The client with this internal id, if the caller may reach it; "not found" otherwise, revealing nothing. */
export async function reachableClient(deps: Pick<AdminDeps, 'clients'>, caller: AdminCaller, id: string): Promise<Client> {
  const client = await deps.clients.findById(id);
  if (!client || !withinReach(caller, client.organizationId)) throw new NotFoundError('Client');
  return client;
}

/** A client the caller may act on: within its reach (404 otherwise) and its authority (403 otherwise, admin-authority.ts). */
export async function manageableClient(deps: Pick<AdminDeps, 'clients' | 'roles'>, caller: AdminCaller, id: string): Promise<Client> {
  const client = await reachableClient(deps, caller, id);
  await requireAuthorityOverClient(deps, caller, client.clientId);
  return client;
}

/** Clients as the caller sees them: `access.manage` where it may act on them. */
async function representClients(deps: Pick<AdminDeps, 'roles'>, caller: AdminCaller, clients: readonly Client[]): Promise<ClientRepresentation[]> {
  const manageable = await manageableClients(
    deps,
    caller,
    clients.map((c) => c.clientId),
  );
  return clients.map((c) => toClientRepresentation(c, manageable.has(c.clientId)));
}

/**
 * The `realm-management` client as Keycloak shows it: not an OAuth client of Hush (it cannot get
 * tokens), only the holder of the admin roles, under a fixed internal id.
 */
export const realmManagementClient: ClientRepresentation = {
  ...toClientRepresentation({
    id: REALM_MANAGEMENT_CLIENT_ID,
    clientId: REALM_MANAGEMENT,
    name: '${client_realm-management}',
    enabled: true,
    description: null,
    secretSealed: null,
    secretHash: '',
    grantTypes: [],
    responseTypes: [],
    redirectUris: [],
    postLogoutRedirectUris: [],
    webOrigins: [],
    scopes: [],
    organizationId: null,
    organizationName: null,
    clientCredentialsRefresh: false,
    signingAlg: null,
    pkceMethod: null,
    consentRequired: false,
    createdAt: new Date(0),
    secretRotatedAt: null,
  }),
  bearerOnly: true,
};

const secretRepresentation = z.object({ type: z.literal('secret'), value: z.string() });
const rotatedSecretRepresentation = z.object({ type: z.literal('secret'), value: z.string().optional(), handover: handoverReceipt.optional() });

export const clientRoutes = [
  defineAdminRoute({
    operationId: 'listClients',
    summary:
      'Clients; `clientId` matches exactly, or as a substring with `search=true`. By clientId unless `sort` (then by clientId among equals), ascending unless `direction=desc`.',
    method: 'get',
    path: '/clients',
    roles: VIEW,
    query: z.object({
      clientId: z.string().optional(),
      search: queryFlag.optional(),
      ...sorting<ClientSort>(['clientId', ...(Object.keys(CLIENT_SORTS) as (keyof typeof CLIENT_SORTS)[])]),
      ...paging(undefined),
    }),
    ok: { status: 200, schema: z.array(clientRepresentation), description: 'The clients, by clientId unless sorted otherwise' },
    async handle(deps: AdminDeps, { query, caller }) {
      // Keycloak's tools look the admin roles' client up by its clientId, to map its roles.
      if (query.clientId === REALM_MANAGEMENT && !query.search) return caller.organizationId === undefined ? [realmManagementClient] : [];
      const clients = await deps.clients.search({
        ...(query.search ? { search: query.clientId } : { clientId: query.clientId }),
        organizationId: caller.organizationId,
        sort: query.sort,
        direction: query.direction,
        first: query.first,
        max: query.max,
      });
      return representClients(deps, caller, clients);
    },
  }),
  defineAdminRoute({
    operationId: 'createClient',
    summary:
      'Creates a client; a `secret` given is its secret (at least 32 characters), else one is generated. With `handoverTo`, the generated secret goes to that address as a one-time secret (never readable back); the `Hush-Handover` header names the receipt.',
    method: 'post',
    path: '/clients',
    roles: MANAGE,
    query: handoverQuery,
    body: clientRepresentationInput,
    ok: { status: 201, description: 'Created; Location ends in the new id' },
    errors: {
      '400': 'Bad representation, or a `secret` with `handoverTo`, or a public client with it',
      '409': 'The clientId is taken',
      '503': 'The secrets service cannot be reached (nothing was created)',
    },
    async handle(deps: AdminDeps, { query, body, caller }, req, res) {
      const input = toClientInput(body);
      if (caller.organizationId !== undefined) input.organization = caller.organizationId;
      if (query.handoverTo === undefined) return (await createClient(deps, input)).client.id;
      if (input.secret !== undefined) throw new InvalidInputError('with handoverTo the secret is generated: leave `secret` out');
      if (body.publicClient) throw new InvalidInputError('a public client has no secret to hand over');
      const secret = newClientSecret().secret;
      // No sealed copy: a handed-over secret is known to its owner alone.
      const { clients, apis, organizations } = deps;
      const { applied, handover } = await handOver(
        deps,
        {
          kind: 'client_secret',
          recipient: query.handoverTo,
          organizationId: caller.organizationId ?? null,
          createdBy: caller.userId ?? caller.subject,
          label: { kind: 'client_secret', name: input.name.trim() || input.clientId, id: input.clientId, by: await handedOverBy(deps, caller) },
          locale: await handoverLocale(deps, req, query.handoverTo),
        },
        secret,
        () => createClient({ clients, apis, organizations }, { ...input, secret }),
        (made) => made.client.id,
      );
      announceHandover(res, handover);
      return applied.client.id;
    },
  }),
  defineAdminRoute({
    operationId: 'getClient',
    summary: 'One client.',
    method: 'get',
    path: '/clients/:id',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: clientRepresentation, description: 'The client' },
    errors: NOT_FOUND,
    handle: async (deps: AdminDeps, { params, caller }) =>
      params.id === REALM_MANAGEMENT_CLIENT_ID && caller.organizationId === undefined
        ? realmManagementClient
        : (await representClients(deps, caller, [await reachableClient(deps, caller, params.id)]))[0],
  }),
  defineAdminRoute({
    operationId: 'updateClient',
    summary: 'Updates a client: fields left out keep their value.',
    method: 'put',
    path: '/clients/:id',
    roles: MANAGE,
    params: idParams,
    body: clientRepresentationInput,
    ok: { status: 204, description: 'Updated' },
    errors: { ...NOT_FOUND, '400': 'Bad representation (clientId cannot change)' },
    async handle(deps: AdminDeps, { params, body, caller }) {
      const client = await manageableClient(deps, caller, params.id);
      const current = toClientRepresentation(client);
      const merged = { ...current, ...body, attributes: { ...current.attributes, ...body.attributes }, secret: undefined, clientId: client.clientId };
      const input = toClientInput(merged);
      if (caller.organizationId !== undefined) input.organization = caller.organizationId;
      await updateClient(deps, client.clientId, input);
    },
  }),
  defineAdminRoute({
    operationId: 'deleteClient',
    summary: 'Deletes a client: its secret and its tokens stop working at once.',
    method: 'delete',
    path: '/clients/:id',
    roles: MANAGE,
    params: idParams,
    ok: { status: 204, description: 'Deleted' },
    errors: NOT_FOUND,
    async handle(deps: AdminDeps, { params, caller }) {
      await deleteClient(deps, (await manageableClient(deps, caller, params.id)).clientId);
    },
  }),
  defineAdminRoute({
    operationId: 'getClientSecret',
    summary: 'The current secret, opened from its sealed copy (404 when CLIENT_SECRET_READBACK is off).',
    method: 'get',
    path: '/clients/:id/client-secret',
    roles: MANAGE,
    params: idParams,
    ok: { status: 200, schema: secretRepresentation, description: 'The secret' },
    errors: { ...NOT_FOUND, '400': 'A public client has no secret' },
    async handle(deps: AdminDeps, { params, caller }) {
      const client = await manageableClient(deps, caller, params.id);
      return { type: 'secret', value: await readClientSecret(deps, client.clientId) };
    },
  }),
  defineAdminRoute({
    operationId: 'rotateClientSecret',
    summary:
      'A new secret; the old one is refused at once on every replica and the client’s tokens are announced revoked. With `handoverTo`, the new secret goes to that address as a one-time secret instead of in the answer (never readable back), and the answer carries the receipt.',
    method: 'post',
    path: '/clients/:id/client-secret',
    roles: MANAGE,
    params: idParams,
    query: handoverQuery,
    ok: { status: 200, schema: rotatedSecretRepresentation, description: 'The new secret, or with `handoverTo` the receipt of its handover' },
    errors: { ...NOT_FOUND, '400': 'A public client has no secret', '503': 'The secrets service cannot be reached (the secret stays as it was)' },
    async handle(deps: AdminDeps, { params, query, caller }, req, res) {
      const client = await manageableClient(deps, caller, params.id);
      if (query.handoverTo === undefined) return { type: 'secret', value: (await rotateClientSecret(deps, client.clientId)).clientSecret };
      if (client.secretHash === null) throw new InvalidInputError(`client ${client.clientId} is public and has no secret`);
      const secret = newClientSecret();
      const { clients, revocations } = deps;
      const { handover, receipt } = await handOver(
        deps,
        {
          kind: 'client_secret',
          recipient: query.handoverTo,
          organizationId: client.organizationId,
          createdBy: caller.userId ?? caller.subject,
          label: { kind: 'client_secret', name: client.name || client.clientId, id: client.clientId, by: await handedOverBy(deps, caller) },
          locale: await handoverLocale(deps, req, query.handoverTo),
        },
        secret.secret,
        () => rotateClientSecret({ clients, revocations }, client.clientId, secret),
        () => client.id,
      );
      announceHandover(res, handover);
      return { type: 'secret', handover: receipt };
    },
  }),
  defineAdminRoute({
    operationId: 'getServiceAccountUser',
    summary: 'The client’s service-account user, to which its roles are granted.',
    method: 'get',
    path: '/clients/:id/service-account-user',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: userRepresentation, description: 'The service-account user' },
    errors: { ...NOT_FOUND, '400': 'The client has no service account (serviceAccountsEnabled is off)' },
    async handle(deps: AdminDeps, { params, caller }) {
      const client = await reachableClient(deps, caller, params.id);
      if (!client.grantTypes.includes('client_credentials')) throw new NotFoundError('Service account');
      return (await representUsers(deps, caller, [await serviceAccountUser(deps, client)]))[0];
    },
  }),
];

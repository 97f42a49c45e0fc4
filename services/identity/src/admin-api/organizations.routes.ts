import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { requireRealmWide, withinReach, type AdminCaller } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, ORGANIZATIONS_PAGE, paging, queryFlag } from './admin-schemas.js';
import { userRepresentation } from './users.representation.js';
import { representUsers } from './users.routes.js';
import { addMember, createOrganization, type Organization, removeMember, updateOrganization } from '../organizations/index.js';

/** Organizations (Keycloak 26's `/organizations`) and their members. */

const VIEW = ['view-realm', 'view-users'] as const;
const MANAGE = ['manage-realm'] as const;
const MANAGE_MEMBERS = ['manage-realm', 'manage-users'] as const;

export const organizationRepresentation = z.object({
  id: z.string(),
  name: z.string(),
  alias: z.string(),
  enabled: z.boolean(),
  description: z.string().optional(),
  attributes: z.record(z.string(), z.array(z.string())),
  domains: z.array(z.object({ name: z.string(), verified: z.boolean() })),
});

const organizationInput = z
  .object({
    name: z.string().optional(),
    alias: z.string().nullish(),
    description: z.string().nullish(),
    enabled: z.boolean().optional(),
    domains: z.array(z.object({ name: z.string() }).loose()).optional(),
    attributes: z.record(z.string(), z.array(z.string())).nullish(),
  })
  .loose();

/**
 * The one organization attribute Hush acts on: `["true"]` makes its members sign in with a second
 * factor (those without one are sent to enrol before their sign-in completes). Others are ignored.
 */
export const REQUIRE_SECOND_FACTOR = 'hush.second-factor.required';
const requirementOf = (attributes: Record<string, string[]> | null | undefined) => {
  const value = attributes?.[REQUIRE_SECOND_FACTOR];
  return value === undefined ? undefined : value[0] === 'true';
};

const toOrganizationRepresentation = (o: Organization) => ({
  id: o.id,
  name: o.name,
  alias: o.alias,
  enabled: o.enabled,
  ...(o.description ? { description: o.description } : {}),
  attributes: { [REQUIRE_SECOND_FACTOR]: [String(o.requireSecondFactor)] },
  domains: o.domains.map((name) => ({ name, verified: false })),
});

async function reachableOrganization(deps: Pick<AdminDeps, 'organizations'>, caller: AdminCaller, id: string): Promise<Organization> {
  const org = await deps.organizations.search({ id });
  if (!org[0] || !withinReach(caller, org[0].id)) throw new NotFoundError('Organization');
  return org[0];
}

const memberParams = z.object({ id: z.string(), userId: z.string() });
const memberRepresentation = userRepresentation.extend({ membershipType: z.literal('UNMANAGED') });

export const organizationRoutes = [
  defineAdminRoute({
    operationId: 'listOrganizations',
    summary: `Organizations; \`search\` matches name or alias (exactly with \`exact=true\`). ${ORGANIZATIONS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/organizations',
    roles: VIEW,
    query: z.object({
      search: z.string().optional(),
      q: z.string().optional(),
      exact: queryFlag.optional(),
      briefRepresentation: queryFlag.optional(),
      ...paging(ORGANIZATIONS_PAGE),
    }),
    ok: { status: 200, schema: z.array(organizationRepresentation), description: 'Organizations, by name' },
    handle: async (deps: AdminDeps, { query, caller }) =>
      (await deps.organizations.search({ search: query.search, exact: query.exact, id: caller.organizationId, first: query.first, max: query.max })).map(
        toOrganizationRepresentation,
      ),
  }),
  defineAdminRoute({
    operationId: 'countOrganizations',
    summary: 'How many organizations match.',
    method: 'get',
    path: '/organizations/count',
    roles: VIEW,
    query: z.object({ search: z.string().optional(), exact: queryFlag.optional() }),
    ok: { status: 200, schema: z.number().int(), description: 'The count' },
    handle: async (deps: AdminDeps, { query, caller }) => (await deps.organizations.search({ search: query.search, exact: query.exact, id: caller.organizationId })).length,
  }),
  defineAdminRoute({
    operationId: 'createOrganization',
    summary: 'Creates an organization (alias default: from the name).',
    method: 'post',
    path: '/organizations',
    roles: MANAGE,
    body: organizationInput,
    ok: { status: 201, description: 'Created; Location ends in the new id' },
    errors: { '400': 'Bad representation', '409': 'The name or alias is taken' },
    async handle(deps: AdminDeps, { body, caller }) {
      requireRealmWide(caller);
      const org = await createOrganization(deps, {
        ...body,
        name: body.name ?? '',
        domains: body.domains?.map((d) => d.name),
        requireSecondFactor: requirementOf(body.attributes),
      });
      return org.id;
    },
  }),
  defineAdminRoute({
    operationId: 'getOrganization',
    summary: 'One organization.',
    method: 'get',
    path: '/organizations/:id',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: organizationRepresentation, description: 'The organization' },
    errors: { '404': 'No such organization' },
    handle: async (deps: AdminDeps, { params, caller }) => toOrganizationRepresentation(await reachableOrganization(deps, caller, params.id)),
  }),
  defineAdminRoute({
    operationId: 'updateOrganization',
    summary: 'Updates an organization: fields left out keep their value.',
    method: 'put',
    path: '/organizations/:id',
    roles: MANAGE,
    params: idParams,
    body: organizationInput,
    ok: { status: 204, description: 'Updated' },
    errors: { '404': 'No such organization', '409': 'The name or alias is taken' },
    async handle(deps: AdminDeps, { params, body, caller }) {
      const org = await reachableOrganization(deps, caller, params.id);
      await updateOrganization(deps, org.id, {
        name: body.name ?? org.name,
        alias: body.alias ?? org.alias,
        description: body.description === undefined ? org.description : body.description,
        enabled: body.enabled ?? org.enabled,
        domains: body.domains ? body.domains.map((d) => d.name) : org.domains,
        requireSecondFactor: requirementOf(body.attributes) ?? org.requireSecondFactor,
      });
    },
  }),
  defineAdminRoute({
    operationId: 'deleteOrganization',
    summary: 'Deletes an organization; its members and clients stay, outside any organization.',
    method: 'delete',
    path: '/organizations/:id',
    roles: MANAGE,
    params: idParams,
    ok: { status: 204, description: 'Deleted' },
    errors: { '404': 'No such organization' },
    async handle(deps: AdminDeps, { params, caller }) {
      requireRealmWide(caller);
      const org = await reachableOrganization(deps, caller, params.id);
      await deps.organizations.delete(org.id);
    },
  }),
  defineAdminRoute({
    operationId: 'listMembers',
    summary: `Members of the organization. ${ORGANIZATIONS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/organizations/:id/members',
    roles: VIEW,
    params: idParams,
    query: z.object({ search: z.string().optional(), exact: queryFlag.optional(), ...paging(ORGANIZATIONS_PAGE) }),
    ok: { status: 200, schema: z.array(memberRepresentation), description: 'Members, by username' },
    errors: { '404': 'No such organization' },
    async handle(deps: AdminDeps, { params, query, caller }) {
      const org = await reachableOrganization(deps, caller, params.id);
      return (await representUsers(deps, caller, await deps.users.members(org.id, query))).map((u) => ({ ...u, membershipType: 'UNMANAGED' as const }));
    },
  }),
  defineAdminRoute({
    operationId: 'countMembers',
    summary: 'How many members the organization has.',
    method: 'get',
    path: '/organizations/:id/members/count',
    roles: VIEW,
    params: idParams,
    ok: { status: 200, schema: z.number().int(), description: 'The count' },
    errors: { '404': 'No such organization' },
    async handle(deps: AdminDeps, { params, caller }) {
      return deps.users.count({ organizationId: (await reachableOrganization(deps, caller, params.id)).id });
    },
  }),
  defineAdminRoute({
    operationId: 'addMember',
    summary: 'Adds a user as a member; the body is the bare user id as a JSON string, as Keycloak’s library sends it.',
    method: 'post',
    path: '/organizations/:id/members',
    roles: MANAGE_MEMBERS,
    params: idParams,
    body: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).transform((o) => o.id)]),
    ok: { status: 201, description: 'Added; Location ends in the user id' },
    errors: { '404': 'No such organization or user', '409': 'Already a member, or a member of another organization' },
    async handle(deps: AdminDeps, { params, body, caller }) {
      const org = await reachableOrganization(deps, caller, params.id);
      await addMember(deps, org.id, body);
      return body;
    },
  }),
  defineAdminRoute({
    operationId: 'getMember',
    summary: 'One member.',
    method: 'get',
    path: '/organizations/:id/members/:userId',
    roles: VIEW,
    params: memberParams,
    ok: { status: 200, schema: memberRepresentation, description: 'The member' },
    errors: { '404': 'No such organization or member' },
    async handle(deps: AdminDeps, { params, caller }) {
      const org = await reachableOrganization(deps, caller, params.id);
      const user = await deps.users.findById(params.userId);
      if (!user || user.organizationId !== org.id) throw new NotFoundError('User is not a member of the organization');
      const [member] = await representUsers(deps, caller, [user]);
      return { ...member!, membershipType: 'UNMANAGED' as const };
    },
  }),
  defineAdminRoute({
    operationId: 'removeMember',
    summary: 'Removes a member from the organization.',
    method: 'delete',
    path: '/organizations/:id/members/:userId',
    roles: MANAGE_MEMBERS,
    params: memberParams,
    ok: { status: 204, description: 'Removed' },
    errors: { '404': 'No such organization or member' },
    async handle(deps: AdminDeps, { params, caller }) {
      await removeMember(deps, (await reachableOrganization(deps, caller, params.id)).id, params.userId);
    },
  }),
];

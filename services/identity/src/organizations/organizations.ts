import { InvalidInputError, MembershipConflictError, NotFoundError } from '../errors.js';
import { aliasOf, type Organization, type OrganizationFields, type OrganizationsRepository } from './organizations.repository.js';
import type { UsersRepository } from '../users/index.js';

/**
 * Organizations as Keycloak 26 has them (name, alias, description, enabled, domains), and their
 * members. A Hush user belongs to at most one organization, which its tokens name (`organization`,
 * `organization_id`): adding a member of another organization is a 409, not a silent move.
 */
export interface OrganizationsDeps {
  organizations: OrganizationsRepository;
  users: UsersRepository;
}

export interface OrganizationInput {
  name: string;
  alias?: string | null | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  domains?: string[] | undefined;
  requireSecondFactor?: boolean | undefined;
}

const ALIAS = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function fieldsOf(input: OrganizationInput): OrganizationFields {
  const name = input.name.trim();
  if (!name || name.length > 255) throw new InvalidInputError('name is required (at most 255 characters)');
  const alias = input.alias || aliasOf(name);
  if (!ALIAS.test(alias)) throw new InvalidInputError('alias must be 1-64 letters, digits or . _ -');
  const domains = [...new Set((input.domains ?? []).map((d) => d.toLowerCase()))];
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw new InvalidInputError(`domain ${bad} is not a domain name`);
  return { name, alias, description: input.description ?? null, enabled: input.enabled ?? true, domains, requireSecondFactor: input.requireSecondFactor };
}

export function createOrganization(deps: Pick<OrganizationsDeps, 'organizations'>, input: OrganizationInput): Promise<Organization> {
  return deps.organizations.create(fieldsOf(input));
}

export async function updateOrganization(deps: Pick<OrganizationsDeps, 'organizations'>, id: string, input: OrganizationInput): Promise<void> {
  if (!(await deps.organizations.update(id, fieldsOf(input)))) throw new NotFoundError('Organization');
}

export async function addMember(deps: OrganizationsDeps, organizationId: string, userId: string): Promise<void> {
  const user = await deps.users.findById(userId);
  if (!user || user.serviceAccountClientId !== null) throw new NotFoundError('User');
  if (user.organizationId === organizationId) throw new MembershipConflictError('User is already a member of the organization');
  if (user.organizationId !== null) throw new MembershipConflictError('User is a member of another organization');
  if (!(await deps.users.setOrganization(userId, organizationId, null))) throw new MembershipConflictError('User is a member of another organization');
}

export async function removeMember(deps: OrganizationsDeps, organizationId: string, userId: string): Promise<void> {
  if (!(await deps.users.setOrganization(userId, null, organizationId))) throw new NotFoundError('User is not a member of the organization');
}

export { type Organization, OrganizationsRepository } from './organizations.repository.js';
export { addMember, createOrganization, removeMember, updateOrganization } from './organizations.js';

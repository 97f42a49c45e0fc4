import type { z } from 'zod';
import type { clientScopeRepresentation } from './client-scopes.routes.js';
import type { clientRepresentation } from './clients.representation.js';
import type { credentialRepresentation } from './credentials.routes.js';
import type { adminEvent, userEvent } from './events.routes.js';
import type { handoverReceipt } from './handovers.routes.js';
import type { keysMetadata, rotationStep } from './keys.routes.js';
import type { organizationRepresentation } from './organizations.routes.js';
import type { userRepresentation } from './users.representation.js';

/**
 * What the admin API answers, as its callers read it (the admin console): each type the output of
 * the route's own response schema, the one the OpenAPI document is generated from, so a caller's
 * view cannot drift from what the API sends.
 */
export type UserView = z.output<typeof userRepresentation>;
export type CredentialView = z.output<typeof credentialRepresentation>;
export type ClientView = z.output<typeof clientRepresentation>;
export type ClientScopeView = z.output<typeof clientScopeRepresentation>;
export type OrganizationView = z.output<typeof organizationRepresentation>;
export type UserEventView = z.output<typeof userEvent>;
export type AdminEventView = z.output<typeof adminEvent>;
export type KeysView = z.output<typeof keysMetadata>;
export type RotationStepView = z.output<typeof rotationStep>;
export type ReceiptView = z.output<typeof handoverReceipt>;

import { z } from 'zod';
import { mailLocale } from '@hush/queue';
import { InvalidInputError } from '../errors.js';
import type { User } from '../users/index.js';

/** Keycloak's UserRepresentation: never a password (credentials are write-only). */
export const userRepresentation = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().optional(),
  emailVerified: z.boolean(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  enabled: z.boolean(),
  createdTimestamp: z.number(),
  totp: z.boolean(),
  serviceAccountClientId: z.string().optional(),
  attributes: z.record(z.string(), z.array(z.string())).optional(),
  disableableCredentialTypes: z.array(z.string()),
  requiredActions: z.array(z.string()),
  notBefore: z.number(),
  access: z.object({ manageGroupMembership: z.boolean(), view: z.boolean(), mapRoles: z.boolean(), impersonate: z.boolean(), manage: z.boolean() }),
});

export const credentialInput = z
  .object({
    type: z.literal('password').optional(),
    // Required, except with `handoverTo` (handovers.routes.ts), where identity generates it.
    value: z.string().optional(),
    // Hush has no required actions: a temporary password would never be asked to change.
    temporary: z.literal(false, { error: 'temporary passwords are not supported (no required actions): send temporary: false' }).optional(),
  })
  .loose();

export const userRepresentationInput = z
  .object({
    username: z.string().min(1).optional(),
    email: z.string().nullish(),
    emailVerified: z.boolean().optional(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    enabled: z.boolean().optional(),
    credentials: z.array(credentialInput).max(1).optional(),
    attributes: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/**
 * `manage`: whether the caller may act on this user (admin-authority.ts); Keycloak's console reads
 * `access` to offer actions. `credentialTypes`: the second factors and passkeys the user holds
 * (`otp`, `webauthn-passwordless`): `totp` says whether `otp` is among them, and each is one the
 * administrator may remove (Keycloak's `disableableCredentialTypes`).
 */
export function toUserRepresentation(u: User, { manage = false, credentialTypes = [] }: { manage?: boolean; credentialTypes?: readonly string[] } = {}) {
  return {
    id: u.id,
    username: u.username,
    ...(u.email ? { email: u.email } : {}),
    emailVerified: u.emailVerified,
    ...(u.firstName ? { firstName: u.firstName } : {}),
    ...(u.lastName ? { lastName: u.lastName } : {}),
    enabled: u.enabled,
    createdTimestamp: u.createdAt.getTime(),
    totp: credentialTypes.includes('otp'),
    ...(u.serviceAccountClientId ? { serviceAccountClientId: u.serviceAccountClientId } : {}),
    ...(u.organizationId || u.locale
      ? { attributes: { ...(u.organizationId ? { 'hush.organization.id': [u.organizationId] } : {}), ...(u.locale ? { locale: [u.locale] } : {}) } }
      : {}),
    disableableCredentialTypes: [...credentialTypes],
    requiredActions: [],
    notBefore: 0,
    access: { manageGroupMembership: manage, view: true, mapRoles: manage, impersonate: false, manage },
  };
}

/** Keycloak's UserSessionRepresentation. */
export const userSessionRepresentation = z.object({
  id: z.string(),
  username: z.string(),
  userId: z.string(),
  ipAddress: z.string(),
  start: z.number(),
  lastAccess: z.number(),
  rememberMe: z.boolean(),
  clients: z.record(z.string(), z.string()),
});

/**
 * The `locale` attribute of a representation's `attributes` (Keycloak sends attributes as lists):
 * undefined when absent (kept as it is), null when empty (removed), else a BCP 47 tag.
 */
export function localeAttribute(attributes: Record<string, unknown> | undefined): string | null | undefined {
  if (!attributes || !Object.hasOwn(attributes, 'locale')) return undefined;
  const raw = attributes['locale'];
  const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  if (value === undefined || value === null || value === '') return null;
  const tag = mailLocale.safeParse(value);
  if (!tag.success || tag.data === undefined) throw new InvalidInputError('attributes.locale must be a language tag such as de or en-GB');
  return tag.data;
}

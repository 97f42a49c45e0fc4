import type { Configuration } from 'oidc-provider';
import { clientMetadata } from './client-metadata.js';
import { ADMIN_API_AUDIENCE, REALM_MANAGEMENT } from '../roles/index.js';
import type { UsersRepository } from '../users/index.js';
import { withGrantClaim } from '../revocations/index.js';

type ExtraTokenClaims = NonNullable<Configuration['extraTokenClaims']>;

/**
 * oidc-provider's `extraTokenClaims` for access tokens: a user's token names the user
 * (`username`, `preferred_username`), their e-mail address (`email`, `email_verified`) and their organization; a client's own token (client
 * credentials, or its service account's refresh) names the client's organization. Every token of a
 * grant also carries `grant_id`, by which resource servers refuse the tokens of a revoked grant
 * (ADR 10).
 */
export function accessTokenClaims(users: Pick<UsersRepository, 'findById'>, adminRoles: AdminRolesOf): ExtraTokenClaims {
  const claims: ExtraTokenClaims = async (ctx, token) => {
    if (token.kind !== 'AccessToken' && token.kind !== 'ClientCredentials') return undefined;
    const accountId = 'accountId' in token ? (token.accountId as string | undefined) : undefined;
    if (token.kind === 'ClientCredentials' || accountId === token.clientId) {
      const meta: Readonly<Record<string, unknown>> = ctx.oidc.client ? clientMetadata(ctx.oidc.client) : {};
      const org = meta['organization_name'] ? { organization: meta['organization_name'], organization_id: meta['organization_id'] } : undefined;
      if (!isAdminToken(token) || !token.clientId) return org;
      return { ...org, ...(await adminAccess(adminRoles({ clientId: token.clientId }))) };
    }
    if (!accountId) return undefined;
    const user = await users.findById(accountId);
    if (!user) return undefined;
    return {
      username: user.username,
      preferred_username: user.username,
      // As Keycloak's access tokens: resource servers match a person by a verified address (the secrets service's recipient-only secrets).
      ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
      ...(user.organizationName ? { organization: user.organizationName, organization_id: user.organizationId } : {}),
      ...(isAdminToken(token) ? await adminAccess(adminRoles({ userId: user.id })) : {}),
    };
  };
  return withGrantClaim(claims);
}

/** The realm-management roles (composites expanded) of a user, or of a client's service-account user. */
export type AdminRolesOf = (who: { userId: string } | { clientId: string }) => Promise<string[]>;

/** Only tokens for the admin API are looked at: other tokens' issuance pays nothing for roles. */
const isAdminToken = (token: { resourceServer?: { audience?: string } | undefined }) => token.resourceServer?.audience === ADMIN_API_AUDIENCE;

const adminAccess = async (roles: Promise<string[]>) => ({ resource_access: { [REALM_MANAGEMENT]: { roles: await roles } } });

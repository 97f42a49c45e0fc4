import type { Configuration } from 'oidc-provider';
import type { UsersRepository } from '../accounts/users.repository.js';
import { withGrantClaim } from '../revocations/grant-claim.js';
import { clientMetadata } from './client-metadata.js';

type ExtraTokenClaims = NonNullable<Configuration['extraTokenClaims']>;

/**
 * oidc-provider's `extraTokenClaims` for access tokens: a user's token names the user
 * (`username`, `preferred_username`) and their organization; a client's own token (client
 * credentials, or its service account's refresh) names the client's organization. Every token of a
 * grant also carries `grant_id`, by which resource servers refuse the tokens of a revoked grant
 * (ADR 10).
 */
export function accessTokenClaims(users: Pick<UsersRepository, 'findById'>): ExtraTokenClaims {
  const claims: ExtraTokenClaims = async (ctx, token) => {
    if (token.kind !== 'AccessToken' && token.kind !== 'ClientCredentials') return undefined;
    const accountId = 'accountId' in token ? (token.accountId as string | undefined) : undefined;
    if (token.kind === 'ClientCredentials' || accountId === token.clientId) {
      const meta: Readonly<Record<string, unknown>> = ctx.oidc.client ? clientMetadata(ctx.oidc.client) : {};
      return meta['organization_name'] ? { organization: meta['organization_name'], organization_id: meta['organization_id'] } : undefined;
    }
    if (!accountId) return undefined;
    const user = await users.findById(accountId);
    if (!user) return undefined;
    return {
      username: user.username,
      preferred_username: user.username,
      ...(user.organizationName ? { organization: user.organizationName, organization_id: user.organizationId } : {}),
    };
  };
  return withGrantClaim(claims);
}

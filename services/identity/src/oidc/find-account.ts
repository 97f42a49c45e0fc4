import type { Account, FindAccount } from 'oidc-provider';
import { isUuid } from '@hush/common';
import type { UsersRepository } from '../users/index.js';
import type { ClientLookup } from '../clients/index.js';

/**
 * oidc-provider's `findAccount`. Accounts are users (uuid ids) or a client's service account (its
 * client id, for the refresh tokens of the client-credentials grant). ID tokens carry Keycloak's
 * `typ: ID` and `azp`, the client the token is for; no other use gets them.
 */
export function accountFinder(users: Pick<UsersRepository, 'findById'>, clients: ClientLookup): FindAccount {
  return async function findAccount(ctx, id): Promise<Account | undefined> {
    if (isUuid(id)) {
      const user = await users.findById(id);
      // A disabled user's refresh tokens stop working at once (their rows also go: sessions/).
      if (!user?.enabled || user.serviceAccountClientId !== null) return undefined;
      const azp = ctx.oidc?.client?.clientId;
      return {
        accountId: user.id,
        claims: (use: string) => ({
          sub: user.id,
          ...(use === 'id_token' ? { typ: 'ID', ...(azp ? { azp } : {}) } : {}),
          preferred_username: user.username,
          ...(user.name ? { name: user.name } : {}),
          // The account as it is now: a token or userinfo answer says whether this address is verified.
          ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
        }),
      };
    }
    const client = await clients.find(id);
    if (!client?.clientCredentialsRefresh || !client.enabled) return undefined;
    return { accountId: client.clientId, claims: () => ({ sub: client.clientId }) };
  };
}

import type { KoaContextWithOIDC, Grant } from 'oidc-provider';
import { REALM_PATH } from '../config.js';
import { ADMIN_API_AUDIENCE, REALM_MANAGEMENT } from '../roles/index.js';

/** One of Keycloak's console clients (seeded by migrations/20261220000000_console_clients.ts). */
export interface ConsoleClient {
  clientId: string;
  /** Where the console is served; its callback is `${mount}/callback`, its post-logout URI `${mount}/`. */
  mount: string;
  /** The scopes it asks for, OIDC ones and its API scopes. */
  scope: string;
  /** The API its access tokens are for (resource indicator), if any. */
  resource?: string;
}

export const ACCOUNT_CONSOLE: ConsoleClient = {
  clientId: 'account-console',
  mount: `${REALM_PATH}/account`,
  scope: 'openid profile email',
};

export const ADMIN_CONSOLE: ConsoleClient = {
  clientId: 'security-admin-console',
  mount: '/auth/admin/public/console',
  scope: `openid profile email ${REALM_MANAGEMENT}`,
  resource: ADMIN_API_AUDIENCE,
};

const FIRST_PARTY: ReadonlyMap<string, ConsoleClient> = new Map([ACCOUNT_CONSOLE, ADMIN_CONSOLE].map((c) => [c.clientId, c]));

/**
 * oidc-provider's `loadExistingGrant`: as Keycloak, its own consoles ask no consent. A person
 * signing in to one gets, without the consent page, a grant of the console's scopes (and of its
 * API's scope); every other client keeps oidc-provider's rule (the session's grant, or a consent).
 */
export async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { client, session, result, provider } = ctx.oidc;
  const grantId = (result?.['consent'] as { grantId?: string } | undefined)?.grantId ?? (client ? session?.grantIdFor(client.clientId) : undefined);
  if (grantId) return provider.Grant.find(grantId);
  const console = client && FIRST_PARTY.get(client.clientId);
  if (!console || !session?.accountId) return undefined;
  const grant = new provider.Grant({ clientId: console.clientId, accountId: session.accountId });
  grant.addOIDCScope(
    console.scope
      .split(' ')
      .filter((s) => ['openid', 'profile', 'email'].includes(s))
      .join(' '),
  );
  if (console.resource) grant.addResourceScope(console.resource, REALM_MANAGEMENT);
  await grant.save();
  return grant;
}

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

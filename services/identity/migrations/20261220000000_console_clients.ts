import type { Knex } from 'knex';

/**
 * Keycloak's two console clients, public (no secret, PKCE required) and signed in through the
 * authorization code flow: `account-console` (the account console) and `security-admin-console`
 * (the admin console). As in Keycloak, whose console clients have the root URL `${authBaseUrl}`,
 * their redirect and post-logout URIs are paths: the protocol resolves them against AUTH_URL
 * (oidc/client-payload.ts), so one database serves whatever public origin the service has.
 * Refresh tokens keep a console session alive past its access token's five minutes.
 */
const CONSOLES = [
  { client_id: 'account-console', name: 'Account Console', path: '/auth/realms/public/account', scopes: ['openid', 'profile', 'email'] },
  // realm-management: the admin API's scope, whose tokens carry the signed-in person's admin roles.
  { client_id: 'security-admin-console', name: 'Security Admin Console', path: '/auth/admin/public/console', scopes: ['openid', 'profile', 'email', 'realm-management'] },
];

export async function up(knex: Knex): Promise<void> {
  await knex('clients')
    .insert(
      CONSOLES.map((c) => ({
        client_id: c.client_id,
        name: c.name,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${c.path}/callback`],
        post_logout_redirect_uris: [`${c.path}/`],
        web_origins: ['+'],
        scopes: c.scopes,
        pkce_method: 'S256',
      })),
    )
    .onConflict('client_id')
    .ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex('clients')
    .whereIn(
      'client_id',
      CONSOLES.map((c) => c.client_id),
    )
    .delete();
}

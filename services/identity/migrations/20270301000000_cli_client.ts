import type { Knex } from 'knex';

/**
 * The `hush` command line's client (packages/cli): public (it runs on people's machines and can
 * keep no secret), allowed only the device authorization grant (RFC 8628: the person approves in
 * a browser, on the usual sign-in and consent pages) and refresh tokens, with the secrets API's
 * scopes. No redirect URIs and no web origins: it is never a browser app. Seeded, as Keycloak's
 * console clients are (20261220000000_console_clients.ts), so every deployment has it and the
 * command line needs no setting; an operator may disable or delete it like any client.
 */
export const CLI_CLIENT_ID = 'hush-cli';

export async function up(knex: Knex): Promise<void> {
  await knex('clients')
    .insert({
      client_id: CLI_CLIENT_ID,
      name: 'Hush command line',
      description: 'hush share, read, request: secrets encrypted on the person’s machine',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      response_types: [],
      redirect_uris: [],
      post_logout_redirect_uris: [],
      web_origins: [],
      scopes: ['openid', 'profile', 'email', 'secrets:read', 'secrets:write'],
    })
    .onConflict('client_id')
    .ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex('clients').where('client_id', CLI_CLIENT_ID).delete();
}

import type { Knex } from 'knex';

/**
 * Keycloak's per-client "Web origins": the origins a browser may call the token, userinfo,
 * logout, introspection and revocation endpoints from with credentialed CORS, and that may frame
 * the session iframe. `+` stands for the origins of the client's redirect URIs. Existing clients
 * get `+`: it is what oidc-provider's default CORS rule already allowed public clients.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE clients ADD COLUMN web_origins text[] NOT NULL DEFAULT '{+}'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE clients DROP COLUMN web_origins`);
}

import type { Knex } from 'knex';

/**
 * oidc-provider's artifacts are stored under the SHA-256 of their id (base64url, as
 * src/oidc/artifact-key.ts computes it), since the id is the credential itself; their payloads
 * lose the copy of the id (`jti`) and interactions the session cookie they recorded. Written out
 * here rather than imported, so this migration stays what it was when it landed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE oidc_models
    SET id = rtrim(translate(encode(sha256(convert_to(id, 'UTF8')), 'base64'), '+/', '-_'), '='),
        payload = (payload - 'jti') #- '{session,cookie}'
  `);
}

/**
 * A hash cannot be undone: the rows would be unreachable by the code of the previous version, so
 * they go. Every user signs in again and every refresh token is void.
 */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM oidc_models`);
}

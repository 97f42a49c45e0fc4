import type { Knex } from 'knex';

/**
 * Signing keys of two algorithms (ES256 and RS256), each with its own active key; and two
 * per-client settings taken from Keycloak: the signature algorithm of the client's tokens
 * (null: the realm default) and the PKCE method the client must use (null: PKCE optional,
 * except for public clients, which always need it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX signing_keys_one_active`);
  await knex.raw(`CREATE UNIQUE INDEX signing_keys_one_active_per_alg ON signing_keys (alg) WHERE status = 'active'`);
  await knex.schema.alterTable('clients', (t) => {
    t.text('signing_alg');
    t.text('pkce_method');
  });
  await knex.raw(`ALTER TABLE clients ADD CONSTRAINT clients_signing_alg CHECK (signing_alg IN ('RS256','ES256'))`);
  await knex.raw(`ALTER TABLE clients ADD CONSTRAINT clients_pkce_method CHECK (pkce_method IN ('S256'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('clients', (t) => {
    t.dropColumn('pkce_method');
    t.dropColumn('signing_alg');
  });
  // Only one active key may remain: the RS256 keys go (their tokens stop verifying).
  await knex.raw(`DELETE FROM signing_keys WHERE alg <> 'ES256'`);
  await knex.raw(`DROP INDEX signing_keys_one_active_per_alg`);
  await knex.raw(`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active'`);
}

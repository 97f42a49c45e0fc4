import type { Knex } from 'knex';

/**
 * `key_fingerprints`: the fingerprint (HKDF output, packages/common key-fingerprint.ts) of each
 * root key this database's data is sealed under, by variable name. The first start records it;
 * a start with another key is refused with the variable's name.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('key_fingerprints', (t) => {
    t.text('key_name').primary();
    t.text('fingerprint').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('key_fingerprints');
}

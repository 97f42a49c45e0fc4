import type { Knex } from 'knex';

/**
 * Issue 11 (Onetime Secret clients, and the spec's own gaps):
 * - `metadata_key_sealed`: the metadata key sealed under HKDF(MASTER_KEY) with the owner's custid
 *   in the AAD, so `recent` can give its authenticated owner each item's key (rows written before
 *   this migration have none and keep `metadata_key: null`);
 * - `anonymous`: written by an anonymous share/generate (ANONYMOUS_SHARES=true); such rows are
 *   never listed in `recent`, whatever account is called `anon`;
 * - `share_domain`: echoed as given (never used to build links).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metadata', (t) => {
    t.binary('metadata_key_sealed');
    t.boolean('anonymous').notNullable().defaultTo(false);
    t.text('share_domain');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metadata', (t) => {
    t.dropColumn('share_domain');
    t.dropColumn('anonymous');
    t.dropColumn('metadata_key_sealed');
  });
}

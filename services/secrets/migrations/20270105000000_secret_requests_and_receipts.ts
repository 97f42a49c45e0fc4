import type { Knex } from 'knex';

/**
 * Secret requests ("send me your secret") and receipts that outlive their secret:
 * - `secret_requests`: a link (its key stored only as SHA-256, and sealed for its owner so the
 *   owner's list can show it again) with which anyone may hand the owner one secret, once. The
 *   address of the person asked is sealed under a MASTER_KEY-derived key bound to the row id.
 *   `metadata_hash` names the secret that answered it; the row is kept, like a receipt, until
 *   RECEIPT_RETENTION after the link closed.
 * - `secrets.reader_custid`: a secret only this account may read (the answer to a request);
 *   null for every other secret (whoever holds the link).
 * - `metadata.received_by`: the account that read it, when the reader was known;
 *   `metadata.request_label`: the label of the request a secret answered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('secret_requests', (t) => {
    t.uuid('id').primary();
    t.binary('request_hash').notNullable().unique();
    t.text('custid').notNullable();
    t.text('label').notNullable();
    t.text('passphrase_policy').notNullable();
    t.integer('secret_ttl').notNullable();
    t.binary('request_key_sealed').notNullable();
    t.text('recipient_obfuscated');
    t.binary('recipient_sealed');
    t.text('state').notNullable().defaultTo('open');
    t.binary('metadata_hash');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('fulfilled_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE secret_requests ADD CONSTRAINT secret_requests_state CHECK (state IN ('open','fulfilled','cancelled'))`);
  await knex.raw(`ALTER TABLE secret_requests ADD CONSTRAINT secret_requests_passphrase_policy CHECK (passphrase_policy IN ('none','optional','required'))`);
  await knex.raw('CREATE INDEX secret_requests_custid_created ON secret_requests (custid, created_at DESC)');
  await knex.raw('CREATE INDEX secret_requests_expires_at ON secret_requests (expires_at)');

  await knex.schema.alterTable('secrets', (t) => {
    t.text('reader_custid');
  });
  await knex.schema.alterTable('metadata', (t) => {
    t.text('received_by');
    t.text('request_label');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metadata', (t) => {
    t.dropColumn('request_label');
    t.dropColumn('received_by');
  });
  await knex.schema.alterTable('secrets', (t) => {
    t.dropColumn('reader_custid');
  });
  await knex.schema.dropTableIfExists('secret_requests');
}
